// The page of `handfoot serve`: draws what the server sends (only what this seat may know)
// and sends moves.  Every rule decision is the server's: buttons are enabled from the legal
// moves it lists, and a refused move shows the server's reason.
"use strict";

const $ = (id) => document.getElementById(id);
const SUITS = { c: "♣", d: "♦", h: "♥", s: "♠" };
const RED_SUITS = "dh";
const MELD_KINDS = ["start_group", "add_natural", "add_two", "add_joker", "start_run", "extend_run_down",
  "extend_run_up", "start_twos_book", "add_two_to_twos_book"];

let state = null;       // the last answer from the server
let options = null;     // presets, agents and the rules settings
let selected = new Set(); // indexes into the hand as drawn
let lowFirst = false;   // Sort: high cards first, or low first
let watchTimer = null;

// ------------------------------------------------------------------ talking to the server
async function call(method, path, data) {
  const init = { method, headers: {} };
  if (data !== undefined) {
    init.headers["Content-Type"] = "application/json";
    init.body = typeof data === "string" ? data : JSON.stringify(data);
  }
  const response = await fetch(path, init);
  const answer = await response.json().catch(() => ({ error: `the server answered ${response.status}` }));
  if (!response.ok) throw new Error(answer.error || `the server answered ${response.status}`);
  return answer;
}

function showError(message) {
  const box = $("error");
  box.textContent = message || "";
  box.hidden = !message;
}

async function attempt(work) {
  try {
    showError("");
    await work();
  } catch (error) {
    showError(error.message);
  }
}

// ------------------------------------------------------------------ cards
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
  const parts = cardParts(label);
  const card = document.createElement("span");
  card.className = "card" + (parts.red ? " red" : "") + (parts.wild ? " wild" : "") + (extra ? " " + extra : "");
  card.dataset.card = label;
  card.textContent = parts.rank === "Jk" ? "Jk" : parts.rank + (parts.suit ? SUITS[parts.suit] : "");
  card.title = label;
  return card;
}

function row(labels, extra) {
  const box = document.createElement("span");
  box.className = "cards";
  for (const label of labels) box.appendChild(cardElement(label, extra));
  return box;
}

function meldLabels(meld) {
  if (meld.type === "run") return meld.cards;
  if (meld.type === "twos") return Array(meld.size).fill("2");
  return [...Array(meld.naturals).fill(meld.rank), ...Array(meld.twos).fill("2"), ...Array(meld.jokers).fill("Jk")];
}

// ------------------------------------------------------------------ drawing the table
function render() {
  const s = state;
  $("table").hidden = false;
  const playing = s.kind === "play";
  const acting = s.to_act; // the asked partner while "may I go out?" stands
  const mover = s.seats[acting];
  const asked = s.question === "asked" ? ` (seat ${s.current} asks: may I go out?)` : "";
  const who = (playing && acting === s.seat ? "your move" : `${mover.name || "seat " + acting} to move`) + asked;
  $("status").textContent = s.over
    ? `Game over — ${s.winners.length > 1 ? "a tie" : "won by " + sideName(s.winners[0])}`
    : `${s.preset}, ${s.players} players · deal ${s.deal} of ${s.deals} · move ${s.turn} · ${who}`;
  $("status").dataset.over = s.over;
  $("status").dataset.turn = s.turn;
  const changed = Object.entries(s.changed_rules);
  $("rules-line").hidden = changed.length === 0;
  $("rules-line").textContent = `Rules changed from ${s.preset}: ` +
    changed.map(([name, value]) => `${name} ${value}`).join(" · ");

  // sides: books and melds on the table
  const sides = $("sides");
  sides.replaceChildren();
  for (const side of s.sides) {
    const box = document.createElement("div");
    box.className = "side";
    box.dataset.owner = side.owner;
    const title = document.createElement("h3");
    title.textContent = `${sideName(side.owner)} · ${side.total} points` +
      (side.opened ? "" : ` · not open (needs ${side.minimum})`) + (side.red_threes ? ` · red 3s: ${side.red_threes}` : "");
    box.appendChild(title);
    for (const [name, melds] of [["books", side.books], ["melds", side.melds]]) {
      for (const meld of melds) {
        const line = document.createElement("div");
        line.className = "meld " + name + (meld.clean ? " clean" : " dirty");
        line.appendChild(row(meldLabels(meld)));
        if (name === "books") line.append(meld.clean ? " clean book" : " dirty book");
        box.appendChild(line);
      }
    }
    sides.appendChild(box);
  }

  $("stock-size").textContent = `${s.stock} cards`;
  $("pile-top").replaceChildren(s.pile.top ? cardElement(s.pile.top, s.pile.blocked ? "blocked" : "") : "—");
  $("pile-size").textContent = `${s.pile.size} cards` + (s.pile.blocked ? " · frozen by a wild or 3 on top" : "");

  const seats = $("seats");
  seats.replaceChildren();
  for (const seat of s.seats) {
    const box = document.createElement("div");
    box.className = "seat" + (seat.seat === s.to_act && !s.over ? " to-move" : "");
    box.dataset.seat = seat.seat;
    const where = state.partnerships ? `seat ${seat.seat}, ${sideName(seat.owner)}` : `seat ${seat.seat}`;
    box.textContent = `${seat.name || "seat " + seat.seat} (${where}): ` +
      `${seat.hand} in hand, ` + (seat.on_foot ? "on the foot" : `foot of ${seat.foot} waiting`);
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

function sideName(owner) {
  if (!state.partnerships) return owner === state.seat && state.kind === "play" ? "you" : `seat ${owner}`;
  const seats = state.sides[owner].seats.join(" & ");
  return (state.kind === "play" && owner === state.seats[state.seat].owner ? "your side" : "side") + ` (seats ${seats})`;
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
    button.textContent = move.text;
    button.title = move.command;
    button.addEventListener("click", () => act({ action: move.action }));
    moves.appendChild(button);
  }
}

function renderSheet() {
  const s = state;
  const table = $("score-sheet");
  table.replaceChildren();
  const head = table.insertRow();
  head.appendChild(Object.assign(document.createElement("th"), { textContent: "Deal" }));
  for (const side of s.sides) head.appendChild(Object.assign(document.createElement("th"), { textContent: sideName(side.owner) }));
  const running = s.sides.map(() => 0);
  for (const deal of s.score_sheet) {
    const line = table.insertRow();
    line.insertCell().textContent = `${deal.deal} (${deal.ended_by})`;
    deal.scores.forEach((score, owner) => {
      running[owner] += score;
      line.insertCell().textContent = `${score} → ${running[owner]}`;
    });
  }
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
      item.textContent = `${note.move} → ${note.instead} (${note.cost >= 0 ? "cost you " + note.cost : "would have lost " + -note.cost})` +
        (note.tip ? ` — ${note.tip}` : "");
      list.appendChild(item);
    }
    part.appendChild(list);
    box.appendChild(part);
  }
}

function renderLog() {
  const log = $("log");
  log.replaceChildren();
  for (const entry of state.log || []) {
    const item = document.createElement("li");
    item.textContent = entry.seat === null ? entry.text : `${entry.name || "seat " + entry.seat}: ${entry.text}`;
    log.appendChild(item);
  }
  if (state.kind === "replay" && state.next) log.appendChild(Object.assign(document.createElement("li"), { textContent: `next: ${state.next}` }));
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

async function start(path, data) {
  stopWatching();
  await attempt(async () => {
    state = await call("POST", path, data);
    selected = new Set();
    $("hint-text").hidden = true;
    $("coach").replaceChildren(Object.assign(document.createElement("p"), {
      className: "quiet", textContent: "After each deal, the moves the hint agent would have changed, with what they cost." }));
    render();
    if (state.kind === "watch") startWatching();
  });
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

// ------------------------------------------------------------------ the rules settings
// One control per setting of /api/options; each holds the preset's default for the chosen
// player count in data-default, and the game is started with the settings that differ.
function settingControls() {
  return [...document.querySelectorAll("#rules-settings [data-setting]")];
}

function settingValue(control) {
  if (control.type === "checkbox") return control.checked;
  if (control.type === "number") return control.value === "" ? null : Number(control.value);
  return control.value;
}

function showSetting(control, value) {
  if (control.type === "checkbox") control.checked = value;
  else control.value = value === null ? "" : String(value);
}

function buildSettings() {
  const box = $("rules-settings");
  for (const setting of options.settings) {
    const id = "rule-" + setting.name;
    let control;
    if (setting.control === "choice") {
      control = document.createElement("select");
      control.replaceChildren(...setting.choices.map((choice) => new Option(choice, choice)));
    } else {
      control = document.createElement("input");
      control.type = setting.control === "bool" ? "checkbox" : "number";
      if (control.type === "number") {
        control.min = 0;
        control.step = 1;
        if (setting.nullable) control.placeholder = "null";
      }
    }
    control.id = id;
    control.dataset.setting = setting.name;
    control.setAttribute("aria-describedby", id + "-about");
    control.addEventListener("input", markChanges);
    const label = Object.assign(document.createElement("label"), { htmlFor: id, textContent: setting.name });
    const about = Object.assign(document.createElement("span"), {
      id: id + "-about", className: "about", textContent: `${setting.about} (${setting.values})` });
    const line = document.createElement("div");
    line.className = "setting";
    if (control.type === "checkbox") line.append(control, " ", label, about);
    else line.append(label, " ", control, about);
    box.appendChild(line);
  }
}

function fillSettings() {
  // The chosen preset's defaults at the chosen player count; a setting the person changed keeps its value.
  const preset = $("preset").value, players = $("players").value;
  for (const control of settingControls()) {
    const setting = options.settings.find((one) => one.name === control.dataset.setting);
    const fresh = setting.defaults[preset][players];
    const untouched = control.dataset.default === undefined || settingValue(control) === JSON.parse(control.dataset.default);
    if (untouched) showSetting(control, fresh);
    control.dataset.default = JSON.stringify(fresh);
  }
  markChanges();
}

function changedSettings() {
  const changed = {};
  for (const control of settingControls()) {
    const value = settingValue(control);
    if (value !== JSON.parse(control.dataset.default)) changed[control.dataset.setting] = value;
  }
  return changed;
}

function markChanges() {
  const changed = changedSettings();
  for (const control of settingControls()) control.parentElement.classList.toggle("changed", control.dataset.setting in changed);
  const count = Object.keys(changed).length;
  $("rules-count").textContent = count ? `(${count} changed)` : "(the preset's)";
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
  $("new-game").addEventListener("click", () => start("/api/play", setupData()));
  $("new-watch").addEventListener("click", () => {
    const data = setupData();
    start("/api/watch", { preset: data.preset, players: data.players, rules: data.rules, seed: data.seed,
      agents: [data.opponents, data.partner === data.opponents ? data.opponents : data.partner] });
  });
  $("replay-file").addEventListener("change", async (event) => {
    const file = event.target.files[0];
    if (!file) return;
    const text = await file.text();
    event.target.value = "";
    await start("/api/replay", text);
  });

  $("draw").addEventListener("click", () => act({ command: "s" }));
  $("pickup").addEventListener("click", () => act({ command: "p" }));
  $("meld").addEventListener("click", () => act({ command: meldCommand(selectedLabels()) }));
  $("discard").addEventListener("click", () => act({ command: "d " + selectedLabels()[0] }));
  $("sort").addEventListener("click", () => { lowFirst = !lowFirst; selected = new Set(); renderHand(); });
  $("hint").addEventListener("click", () => attempt(async () => {
    const hint = await call("GET", "/api/hint");
    const box = $("hint-text");
    box.textContent = `Hint (${hint.agent}): ${hint.text} — ${hint.why}. Type it: ${hint.command}`;
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
