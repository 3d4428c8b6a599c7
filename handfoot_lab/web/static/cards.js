// Cards as the page draws them, wherever they show (hand, table, move log, Hint, the Coach),
// and the server's words for moves, whose cards come in braces: "discard {3b}".
"use strict";

const SUITS = { c: "♣", d: "♦", h: "♥", s: "♠" };
const RED_SUITS = "dh";

function cardParts(label) {
  // "K", "10", "Jk", "2", "3b", "3r", or a suited natural "Kh" (house)
  if (label === "Jk") return { rank: "Jk", suit: "", red: false, wild: true };
  if (label === "3r") return { rank: "3", suit: "", red: true, three: true };
  if (label === "3b") return { rank: "3", suit: "", red: false, three: true };
  const last = label.slice(-1);
  if (SUITS[last] && label.length > 1) return { rank: label.slice(0, -1), suit: last, red: RED_SUITS.includes(last) };
  return { rank: label, suit: "", red: false, wild: label === "2" };
}

function cardElement(label, extra) {
  // One look for a card wherever it shows (hand, table, move log, Hint, the Coach): the
  // threes have no suit, so a black three is a black "3", a red three a red one.
  const parts = cardParts(label);
  const card = document.createElement("span");
  card.className = "card" + (parts.red ? " red" : "") + (parts.wild ? " wild" : "") + (extra ? " " + extra : "");
  card.dataset.card = label;
  card.textContent = parts.rank === "Jk" ? "Jk" : parts.rank + (parts.suit ? SUITS[parts.suit] : "");
  card.title = CARD_TITLES[label] || label;
  return card;
}

const CARD_TITLES = { "3b": "black three", "3r": "red three", Jk: "joker", 2: "two (wild)" };

function row(labels, extra) {
  const box = document.createElement("span");
  box.className = "cards";
  for (const label of labels) box.appendChild(cardElement(label, extra));
  return box;
}

function wordsElement(text, tag) {
  // The server's words for a move, cards written in braces ("discard {3b}"), cards drawn as cards.
  const box = document.createElement(tag || "span");
  box.className = "words";
  text.split(/(\{[^}]+\})/).forEach((part) => {
    if (/^\{[^}]+\}$/.test(part)) box.appendChild(cardElement(part.slice(1, -1), "small"));
    else if (part) box.append(part);
  });
  return box;
}

function meldLabels(meld) {
  if (meld.type === "run") return meld.cards;
  if (meld.type === "twos") return Array(meld.size).fill("2");
  if (meld.type === "threes") return Array(meld.size).fill("3b");
  if (meld.type === "wild") return [...Array(meld.twos).fill("2"), ...Array(meld.jokers).fill("Jk")];
  return [...Array(meld.naturals).fill(meld.rank), ...Array(meld.twos).fill("2"), ...Array(meld.jokers).fill("Jk")];
}

