// The page of `handfoot serve`: draws what the server sends (only what this seat may know)
// and sends moves.  Every rule decision is the server's: buttons are enabled from the legal
// moves it lists, and a refused move shows the server's reason.  cards.js draws cards and
// the words of moves; settings.js the Rules section of the form.
"use strict";

const $ = (id) => document.getElementById(id);
const MELD_KINDS = ["start_group", "add_natural", "add_two", "add_joker", "start_run", "extend_run_down",
  "extend_run_up", "start_twos_book", "add_two_to_twos_book"];

let state = null;       // the last answer from the server
let options = null;     // presets, agents and the rules settings
let selected = new Set(); // indexes into the hand as drawn
let lowFirst = false;   // Sort: high cards first, or low first
let watchTimer = null;

// ------------------------------------------------------------------ talking to the server
const NOT_ANSWERING = "The server is not answering: is handfoot serve still running? (Start it again, then press Play.)";
let pending = 0;        // requests on their way
let busyWords = "";     // what the busy sign says while they are

async function call(method, path, data) {
  const init = { method, headers: {} };
  if (data !== undefined) {
    init.headers["Content-Type"] = "application/json";
    init.body = typeof data === "string" ? data : JSON.stringify(data);
  }
  let response;
  pending += 1;
  // A quick answer shows no sign; one that takes a while (an agent loading, the Coach's
  // review at a deal's end) shows what the server is doing, and the controls wait for it.
  const sign = setTimeout(() => showBusy(busyWords || "Working…"), 250);
  try {
    response = await fetch(path, init);
  } catch (error) {
    throw new Error(NOT_ANSWERING);  // fetch itself failed: no answer at all
  } finally {
    pending -= 1;
    clearTimeout(sign);
    if (pending === 0) showBusy("");
  }
  const answer = await response.json().catch(() => ({ error: `the server answered ${response.status}` }));
  if (!response.ok) throw new Error(answer.error || `the server answered ${response.status}`);
  return answer;
}

function showBusy(words) {
  $("busy").textContent = words;
  $("busy").hidden = !words;
  document.body.classList.toggle("busy", Boolean(words));
}

function showError(message) {
  const box = $("error");
  box.textContent = message || "";
  box.hidden = !message;
}

async function attempt(work, busy) {
  busyWords = busy || "";
  try {
    showError("");
    await work();
  } catch (error) {
    showError(error.message);
  } finally {
    busyWords = "";
  }
}

// ------------------------------------------------------------------ drawing the table
function render() {
  const s = state;
  $("welcome").hidden = true;
  $("table").hidden = false;
  $("status").replaceChildren(...statusLine());
  $("status").dataset.over = s.over;
  $("status").dataset.turn = s.turn;
  $("status").dataset.question = s.question;
  const changed = Object.entries(s.changed_rules);
  $("rules-line").hidden = changed.length === 0;
  $("rules-line").textContent = `Rules changed from ${s.preset}: ` +
    changed.map(([name, value]) => `${settingLabel(name)}: ${shownValue(value)}`).join(" · ");

  // sides: books and melds on the table
  const sides = $("sides");
  sides.replaceChildren();
  for (const side of s.sides) {
    const box = document.createElement("div");
    box.className = "side";
    box.dataset.owner = side.owner;
    const title = document.createElement("h3");
    title.textContent = `${capital(sideName(side.owner))} · ${side.total} points`;
    box.appendChild(title);
    const facts = document.createElement("div");
    facts.className = "side-facts";
    const opened = side.opened ? "opened" : `not opened: needs ${side.minimum} points to open`;
    const out = side.still_needed.length ? `to go out, still needs ${side.still_needed.join(", ")}` : "has the books to go out";
    facts.append(Object.assign(document.createElement("span"), { className: "opened", textContent: opened }),
      " · ", Object.assign(document.createElement("span"), { className: "needs", textContent: out }));
    if (side.red_threes) facts.append(` · red threes: ${side.red_threes}`);
    box.appendChild(facts);
    for (const [name, melds] of [["books", side.books], ["melds", side.melds]]) {
      for (const meld of melds) {
        const line = document.createElement("div");
        line.className = "meld " + name + (meld.clean ? " clean" : " dirty");
        line.appendChild(row(meldLabels(meld)));
        if (name === "books") line.append(" " + bookName(meld));
        box.appendChild(line);
      }
    }
    sides.appendChild(box);
  }

  $("stock-size").textContent = `${s.stock} cards`;
  $("pile-top").replaceChildren(s.pile.top ? cardElement(s.pile.top, s.pile.blocked ? "blocked" : "") : "—");
  $("pile-size").textContent = `${s.pile.size} cards` + (s.pile.blocked ? " · frozen by a wild or a three on top" : "");

  const seats = $("seats");
  seats.replaceChildren();
  for (const seat of s.seats) {
    const box = document.createElement("div");
    box.className = "seat" + (seat.seat === s.to_act && !s.over ? " to-move" : "");
    box.dataset.seat = seat.seat;
    const team = !state.partnerships ? "" : state.kind !== "play" ? `, side ${seat.owner}`
      : seat.owner === s.seats[s.seat].owner ? ", your side" : ", opponents";
    box.textContent = `${seat.seat === s.seat && s.kind === "play" ? "you" : seatName(seat.seat).replace(/ \(seat \d+\)$/, "")}` +
      ` (seat ${seat.seat}${team}): ` +
      `${seat.hand} in hand, ` + (seat.on_foot ? "playing from the foot" : `foot of ${seat.foot} waiting`);
    if (seat.known_cards.length && seat.seat !== s.seat && !seat.hand_cards) {
      const known = document.createElement("div");
      known.className = "known";
      known.append("took from the pile, still holds ", row(seat.known_cards));
      box.appendChild(known);
    }
    if (seat.hand_cards) {
      const hidden = document.createElement("div");
      hidden.className = "revealed";
      hidden.append("hand ", row(seat.hand_cards), seat.on_foot ? "" : " foot ", seat.on_foot ? "" : row(seat.foot_cards));
      box.appendChild(hidden);
    }
    seats.appendChild(box);
  }

  renderHand();
  renderSheet();
  renderCoach();
  renderLog();
  renderModeControls();
}

function statusLine() {
  // Where the game stands, whose move it is, and what was asked and answered aloud.
  const s = state;
  if (s.over) return [`Game over — ${s.winners.length > 1 ? "a tie" : "won by " + sideName(s.winners[0])}`];
  const parts = [`${s.preset}, ${s.players} players · deal ${s.deal} of ${s.deals} · move ${s.turn} · `];
  const mine = s.kind === "play" && s.to_act === s.seat;
  if (s.question === "asked") {
    const asker = seatName(s.current), asked = seatName(s.to_act);
    parts.push(mine ? `${capital(asker)} asks you: may I go out? Answer Yes or No.`
      : `${capital(asker)} asks ${asked}: may I go out?`);
  } else {
    parts.push(mine ? "your move" : `${seatName(s.to_act)} to move`);
  }
  const talk = s.talk || [];
  if (talk.length && s.question !== "asked") {
    const [question, answer] = talk;
    const said = `${capital(seatName(question.seat))} asked: may I go out?` +
      (answer ? ` ${capital(seatName(answer.seat))} said ${answer.said}.` : "");
    parts.push(Object.assign(document.createElement("span"), { id: "talk", textContent: " · " + said }));
  }
  return parts;
}

function seatName(seat) {
  // "you", "your partner", or the agent's name with its seat
  const s = state;
  if (s.kind === "play" && seat === s.seat) return "you";
  const entry = s.seats[seat];
  if (s.kind === "play" && s.partnerships && entry.owner === s.seats[s.seat].owner) return `your partner (seat ${seat})`;
  return `${(entry.name || "seat").replace(" (partner)", "")} (seat ${seat})`;
}

function sideName(owner) {
  const s = state;
  const mine = s.kind === "play" && owner === s.seats[s.seat].owner;
  if (!s.partnerships) return mine ? "you" : seatName(owner);
  const seats = `seats ${s.sides[owner].seats.join(" & ")}`;
  if (s.kind !== "play") return `side of ${seats}`;
  return mine ? `your side (${seats})` : `opponents (${seats})`;
}

function capital(text) {
  return text.charAt(0).toUpperCase() + text.slice(1);
}

function bookName(meld) {
  if (state.preset === "house") return meld.clean ? "red canasta" : "black canasta";
  if (meld.type === "wild") return "wild book";
  return meld.clean ? "clean book" : "dirty book";
}

function renderHand() {
  const s = state;
  $("hand-title").textContent = s.kind === "play" ? "Your hand" : `Hand of seat ${s.seat}`;
  const labels = lowFirst ? [...s.hand].reverse() : s.hand;
  const hand = $("hand");
  hand.replaceChildren();
  labels.forEach((label, index) => {
    const card = cardElement(label, selected.has(index) ? "selected" : "");
    card.dataset.index = index;
    if (s.kind === "play") card.addEventListener("click", () => toggle(index));
    hand.appendChild(card);
  });
  $("staged-box").hidden = s.staged.length === 0;
  $("staged").replaceChildren(row(s.staged));
  $("staged-value").textContent = `${s.staged_value} points staged`;

  const kinds = new Set(s.legal.map((move) => move.kind));
  $("mine").dataset.mode = s.kind;
  $("controls").hidden = s.kind !== "play";
  $("moves-box").hidden = s.kind !== "play";
  $("draw").disabled = !kinds.has("draw");
  $("pickup").disabled = !kinds.has("take_pile");
  $("meld").disabled = !MELD_KINDS.some((kind) => kinds.has(kind)) || selected.size === 0;
  $("discard").disabled = !(kinds.has("discard") || kinds.has("discard_suited")) || selected.size !== 1;
  // Permission to go out: the buttons show when the rules have the question at all
  $("question-buttons").hidden = !(s.changed_rules.permission_to_go_out && s.kind === "play");
  $("ask").disabled = !kinds.has("ask_to_go_out");
  $("answer-yes").disabled = !kinds.has("answer_yes");
  $("answer-no").disabled = !kinds.has("answer_no");
  $("hint").disabled = s.legal.length === 0;
  // A game in play has no record until it is over: its seed would rebuild every hidden card.
  const recordLater = s.kind === "play" && !s.over;
  $("save").disabled = recordLater;
  $("save").title = recordLater ? "The record becomes available when the game is over: its seed rebuilds every hidden card." : "";

  const moves = $("moves");
  moves.replaceChildren();
  for (const move of s.legal) {
    const button = document.createElement("button");
    button.type = "button";
    button.className = "move";
    button.dataset.action = move.action;
    button.dataset.command = move.command;
    button.dataset.kind = move.kind;
    button.appendChild(wordsElement(move.words));
    button.addEventListener("click", () => act({ action: move.action }));
    moves.appendChild(button);
  }
}

function renderSheet() {
  // One row a deal: each side's score and running total, and under it the score's parts.
  const s = state;
  const table = $("score-sheet");
  table.replaceChildren();
  const head = table.insertRow();
  head.appendChild(Object.assign(document.createElement("th"), { textContent: "Deal" }));
  for (const side of s.sides) head.appendChild(Object.assign(document.createElement("th"), { textContent: capital(sideName(side.owner)) }));
  const running = s.sides.map(() => 0);
  for (const deal of s.score_sheet) {
    const line = table.insertRow();
    line.className = "deal";
    line.insertCell().textContent = `${deal.deal} (${deal.ended_by})`;
    deal.scores.forEach((score, owner) => {
      running[owner] += score;
      const cell = line.insertCell();
      cell.append(Object.assign(document.createElement("b"), { textContent: `${score}` }), ` → ${running[owner]}`);
      cell.appendChild(scoreParts(deal.parts[owner]));
    });
  }
}

function scoreParts(part) {
  // docs/rules.md "Scoring": cards melded, book bonuses, red threes, going out, cards held
  const list = document.createElement("div");
  list.className = "parts";
  const bonus = state.preset === "house" ? "canastas" : "books";
  const items = [["cards melded", part.melded], [bonus, part.book_bonus], ["red threes", part.red_threes],
    ["going out", part.going_out], ["cards held", part.held]];
  list.textContent = items.filter(([name, value]) => value !== 0 || name === "cards melded" || name === "cards held")
    .map(([name, value]) => `${name} ${value > 0 ? "+" : ""}${value}`).join(" · ");
  return list;
}

function renderCoach() {
  const box = $("coach");
  const reviews = state.reviews || [];
  if (state.kind !== "play" || reviews.length === 0) return;
  box.replaceChildren();
  for (const review of reviews) {
    const part = document.createElement("div");
    part.className = "review";
    const costly = review.notes.filter((note) => note.cost > 0);
    part.appendChild(Object.assign(document.createElement("h3"), {
      textContent: `Deal ${review.deal}: the hint agent would have changed ${review.changed} of your ${review.moves} moves` +
        (costly.length ? `; ${costly.length} of those weighed cost you points` : "; none weighed cost you points"),
    }));
    const list = document.createElement("ul");
    for (const note of review.notes) {
      const item = document.createElement("li");
      item.append("you: ", wordsElement(note.move), " — it would: ", wordsElement(note.instead),
        ` (${note.cost >= 0 ? "cost you " + note.cost : "gained you " + -note.cost} points)`);
      if (note.tip) item.append(` — ${note.tip}`);
      list.appendChild(item);
    }
    part.appendChild(list);
    box.appendChild(part);
  }
}

function renderLog() {
  // Newest first, each move with its number in the game (the first move is 1).
  const log = $("log");
  log.replaceChildren();
  if (state.kind === "replay" && state.next) {
    log.appendChild(Object.assign(document.createElement("li"), { textContent: `next: ${state.next}`, value: state.step + 1 }));
  }
  for (const entry of [...(state.log || [])].reverse()) {
    const item = document.createElement("li");
    if (entry.move !== null) item.value = entry.move;
    item.className = entry.seat === null ? "deal-end" : "";
    if (entry.seat !== null) item.append(`${capital(seatName(entry.seat))}: `);
    item.appendChild(wordsElement(entry.words));
    log.appendChild(item);
  }
}

function renderModeControls() {
  const s = state;
  $("watch-controls").hidden = s.kind !== "watch";
  $("replay-controls").hidden = s.kind !== "replay";
  $("view-controls").hidden = s.kind === "play";
  const seatSelect = $("view-seat");
  if (seatSelect.options.length !== s.players + 1) {
    seatSelect.replaceChildren(new Option("to move", ""));
    for (let seat = 0; seat < s.players; seat++) seatSelect.appendChild(new Option(`seat ${seat}`, seat));
  }
  if (s.kind === "replay") {
    $("replay-slider").max = s.steps;
    $("replay-slider").value = s.step;
    $("replay-next").textContent = `move ${s.step} of ${s.steps}`;
    const deals = $("replay-deal");
    if (deals.options.length !== s.deal_starts.length) {
      deals.replaceChildren();
      s.deal_starts.forEach((_, index) => deals.appendChild(new Option(`${index + 1}`, index + 1)));
    }
    deals.value = s.deal;
    $("replay-back").disabled = $("replay-start").disabled = s.step === 0;
    $("replay-forward").disabled = $("replay-end").disabled = s.step === s.steps;
  }
  if (s.kind === "watch") {
    $("watch-ms").textContent = `${$("watch-speed").value} ms a move`;
    $("watch-step").disabled = s.over;
    if (s.over) stopWatching();
  }
}

// ------------------------------------------------------------------ playing
function toggle(index) {
  if (selected.has(index)) selected.delete(index); else selected.add(index);
  renderHand();
}

function selectedLabels() {
  const labels = lowFirst ? [...state.hand].reverse() : state.hand;
  return [...selected].sort((a, b) => a - b).map((index) => labels[index]);
}

function meldCommand(labels) {
  // house: naturals of one suit with distinct ranks make (or extend) a run; a single card
  // extends a run when that is a legal move, and otherwise joins its group
  const parts = labels.map(cardParts);
  const suits = new Set(parts.map((part) => part.suit));
  const ranks = new Set(parts.map((part) => part.rank));
  const run = "r " + labels.join(" ");
  if (state.preset === "house" && suits.size === 1 && !suits.has("") && ranks.size === labels.length) {
    if (labels.length > 1 || state.legal.some((move) => move.command === run)) return run;
  }
  return "m " + labels.join(" ");
}

async function act(move) {
  await attempt(async () => {
    state = await call("POST", "/api/act", { turn: state.turn, ...move });
    selected = new Set();
    $("hint-text").hidden = true;
    render();
  });
}

async function start(path, data, busy) {
  stopWatching();
  await attempt(async () => {
    state = await call("POST", path, data);
    selected = new Set();
    $("hint-text").hidden = true;
    $("coach").replaceChildren(Object.assign(document.createElement("p"), {
      className: "quiet", textContent: "After each deal, the moves the hint agent would have changed, with what they cost." }));
    render();
    if (state.kind === "watch") startWatching();
  }, busy);
}

function dealingWords(agents) {
  // An agent with a network (ppo, tuned, ...) loads its model the first time: say so.
  const trained = [...new Set(agents)].filter((name) => !["heuristic", "greedy", "random"].includes(name));
  return trained.length ? `Dealing… loading ${trained.join(" and ")} can take a few seconds the first time.` : "Dealing…";
}

function setupData() {
  const seed = $("seed").value;
  return {
    preset: $("preset").value, players: Number($("players").value),
    opponents: $("opponents").value, partner: $("partner").value, hint: $("hint-agent").value,
    rules: changedSettings(),
    ...(seed === "" ? {} : { seed }),  // as typed: the server reads the digits (a Number loses those past 2**53)
  };
}

function howTo(hint) {
  // How to play the hinted move with the page's own buttons.
  const buttons = { draw: "Draw", take_pile: "Pick up", ask_to_go_out: "Ask partner", answer_yes: "Yes", answer_no: "No" };
  if (buttons[hint.kind]) return `Press ${buttons[hint.kind]}.`;
  if (hint.kind === "discard" || hint.kind === "discard_suited") return "Select that card in your hand and press Discard.";
  if (["start_group", "add_natural", "start_run", "start_twos_book", "add_two_to_twos_book"].includes(hint.kind)) {
    return "Select those cards in your hand and press Meld.";
  }
  return "Press it under All legal moves (it is marked there).";
}

// ------------------------------------------------------------------ watching and replaying
function viewQuery() {
  const seat = $("view-seat").value;
  return `?seat=${seat}&reveal=${$("reveal").checked ? 1 : 0}`;
}

async function refresh() {
  await attempt(async () => {
    state = await call("GET", "/api/table" + viewQuery());
    render();
  });
}

async function advance() {
  await attempt(async () => {
    state = await call("POST", "/api/advance" + viewQuery(), { steps: 1 });
    render();
  });
}

function startWatching() {
  stopWatching();
  $("watch-play").textContent = "Pause";
  const tick = async () => {
    if (!state || state.kind !== "watch" || state.over) return stopWatching();
    await advance();
    if (watchTimer !== null) watchTimer = setTimeout(tick, Number($("watch-speed").value));
  };
  watchTimer = setTimeout(tick, Number($("watch-speed").value));
}

function stopWatching() {
  if (watchTimer !== null) clearTimeout(watchTimer);
  watchTimer = null;
  $("watch-play").textContent = "Play";
}

async function goto(target) {
  await attempt(async () => {
    state = await call("POST", "/api/goto" + viewQuery(), target);
    render();
  });
}

// ------------------------------------------------------------------ wiring
function fillPlayers() {
  const preset = options.presets[$("preset").value];
  const select = $("players");
  select.replaceChildren(...preset.players.map((count) => new Option(count, count, false, count === preset.default)));
  const partnership = $("preset").value !== "classic";
  $("partner").disabled = !partnership;
}

async function init() {
  options = await call("GET", "/api/options");
  for (const select of document.querySelectorAll("select.agent")) {
    select.replaceChildren(...options.agents.map((name) => new Option(name, name, false, name === "heuristic")));
  }
  fillPlayers();
  buildSettings();
  fillSettings();
  $("preset").addEventListener("change", () => { fillPlayers(); fillSettings(); });
  $("players").addEventListener("change", fillSettings);
  $("new-game").addEventListener("click", () => {
    const data = setupData();
    start("/api/play", data, dealingWords([data.opponents, data.partner, data.hint]));
  });
  $("new-watch").addEventListener("click", () => {
    const data = setupData();
    const agents = [data.opponents, data.partner === data.opponents ? data.opponents : data.partner];
    start("/api/watch", { preset: data.preset, players: data.players, rules: data.rules, seed: data.seed, agents },
      dealingWords(agents));
  });
  $("replay-file").addEventListener("change", async (event) => {
    const file = event.target.files[0];
    if (!file) return;
    const text = await file.text();
    event.target.value = "";
    await start("/api/replay", text, "Opening the record…");
  });

  $("draw").addEventListener("click", () => act({ command: "s" }));
  $("ask").addEventListener("click", () => act({ command: "ask" }));
  $("answer-yes").addEventListener("click", () => act({ command: "yes" }));
  $("answer-no").addEventListener("click", () => act({ command: "no" }));
  $("pickup").addEventListener("click", () => act({ command: "p" }));
  $("meld").addEventListener("click", () => act({ command: meldCommand(selectedLabels()) }));
  $("discard").addEventListener("click", () => act({ command: "d " + selectedLabels()[0] }));
  $("sort").addEventListener("click", () => { lowFirst = !lowFirst; selected = new Set(); renderHand(); });
  $("hint").addEventListener("click", () => attempt(async () => {
    const hint = await call("GET", "/api/hint");
    const box = $("hint-text");
    box.replaceChildren(`Hint (${hint.agent}): `, wordsElement(hint.words), ` — ${hint.why}. ${howTo(hint)}`);
    box.dataset.action = hint.action;
    box.hidden = false;
    for (const button of document.querySelectorAll("#moves .move")) {
      button.classList.toggle("hinted", Number(button.dataset.action) === hint.action);
    }
  }));
  $("save").addEventListener("click", () => { window.location.href = "/api/record"; });

  $("watch-play").addEventListener("click", () => (watchTimer === null ? startWatching() : stopWatching()));
  $("watch-step").addEventListener("click", () => { stopWatching(); advance(); });
  $("watch-speed").addEventListener("input", () => { $("watch-ms").textContent = `${$("watch-speed").value} ms a move`; });

  $("replay-start").addEventListener("click", () => goto({ step: 0 }));
  $("replay-back").addEventListener("click", () => goto({ step: state.step - 1 }));
  $("replay-forward").addEventListener("click", () => goto({ step: state.step + 1 }));
  $("replay-end").addEventListener("click", () => goto({ step: state.steps }));
  $("replay-slider").addEventListener("change", () => goto({ step: Number($("replay-slider").value) }));
  $("replay-deal").addEventListener("change", () => goto({ deal: Number($("replay-deal").value) }));
  $("view-seat").addEventListener("change", refresh);
  $("reveal").addEventListener("change", refresh);
  $("new-game").disabled = $("new-watch").disabled = false;  // ready
}

init().catch((error) => showError(error.message));
