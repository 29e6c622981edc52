// The Boon table in the browser. The server decides everything: this page draws the states it
// receives (one per move, shown one at a time at the chosen pace) and sends the person's moves.
// Protocol: docs/web.md.
"use strict";

const $ = (id) => document.getElementById(id);

const ui = {
  socket: null,
  mode: null, // "play" or "replay"
  cardPoints: {}, // suit -> point value by rank - 1
  seats: [], // seat labels
  game: null, // the id of the game being played
  queue: [], // state messages not yet shown
  showing: false, // a message is on screen for its pause
  current: null, // the last state shown
  decision: null, // key of the decision the coach is about
  advice: null, // the coach's last advice for that decision
  joining: false,
  replay: { round: 0, rounds: 0, step: 0, steps: 0, frame: null, timer: null },
};

// ------------------------------------------------------------------------------ connection
function connect() {
  const scheme = location.protocol === "https:" ? "wss" : "ws";
  ui.socket = new WebSocket(`${scheme}://${location.host}/ws`);
  ui.socket.addEventListener("message", (event) => receive(JSON.parse(event.data)));
  ui.socket.addEventListener("close", () => setStatus("disconnected: reload the page to reconnect"));
}

function send(message) {
  if (ui.socket && ui.socket.readyState === WebSocket.OPEN) ui.socket.send(JSON.stringify(message));
}

function receive(message) {
  switch (message.type) {
    case "hello":
      return hello(message);
    case "joined":
      ui.game = message.game;
      ui.joining = false;
      sessionStorage.setItem("boon-game", message.game);
      return;
    case "state":
      if (message.game !== ui.game) return; // a reply about a game this page left
      ui.queue.push(message);
      return pump();
    case "coach":
      return showAdvice(message);
    case "frame":
      return showFrame(message);
    case "error":
      if (ui.joining) {
        // The game we were playing before a reload is gone: start a new one.
        ui.joining = false;
        sessionStorage.removeItem("boon-game");
        return send({ type: "new" });
      }
      return setStatus(`error: ${message.error}`, true);
  }
}

function hello(message) {
  ui.mode = message.mode;
  ui.cardPoints = message.card_points;
  document.body.classList.add(`mode-${message.mode}`);
  if (message.mode === "replay") {
    ui.replay.rounds = message.rounds;
    return requestFrame(0, 0);
  }
  ui.seats = message.seats;
  if (!message.coach_policy) $("coach-control").classList.add("hidden");
  if (!message.coach) $("ask-search").classList.add("hidden");
  const previous = sessionStorage.getItem("boon-game");
  if (previous) {
    ui.joining = true;
    send({ type: "join", game: previous });
  } else {
    send({ type: "new" });
  }
}

// ------------------------------------------------------------------------------ pacing
function delay() {
  return Number($("speed").value);
}

// Show queued states one at a time; an opponent's move or a finished trick stays on screen
// for the chosen pause before the next state replaces it.
function pump() {
  if (ui.showing || ui.queue.length === 0) return;
  const message = ui.queue.shift();
  ui.showing = true;
  render(message);
  const event = message.event;
  const pause =
    event && (event.seat !== message.you || trickJustEnded(message)) && ui.queue.length > 0
      ? delay()
      : 0;
  setTimeout(() => {
    ui.showing = false;
    if (ui.queue.length === 0) settle(message);
    pump();
  }, pause);
}

function trickJustEnded(message) {
  const table = message.table;
  return message.event && message.event.kind === "play" && table.trick.length === 0;
}

// The last state is on screen: let the person act, or show the round's summary.
function settle(message) {
  if (message.summary) return showSummary(message);
  if (message.legal.length > 0) {
    ui.decision = `${message.round}:${message.table.tricks_played}:${message.legal.join(",")}`;
    ui.advice = null;
    $("ask-search").disabled = false;
    if ($("coach").checked) send({ type: "coach", game: ui.game });
  }
  renderHand(message);
}

// ------------------------------------------------------------------------------ drawing
function render(message) {
  ui.current = message;
  const table = message.table;
  $("ask-search").disabled = true;
  setStatus(`Round ${message.round}${message.game_over ? " · game over" : ""}`);
  renderSeats(table, message.you, (seat) => label(seat));
  renderTrick(table, message.you, message.event);
  renderScores(table, (seat) => label(seat));
  renderLastTrick(table, (seat) => label(seat));
  renderPrompt(message);
  renderHand(message);
  if (message.event) log(describe(message.event, table, message.you));
  if (trickJustEnded(message)) {
    const last = table.last_trick;
    log(`${label(last.winner)} ${last.winner === message.you ? "win" : "wins"} the trick (${last.points} points)`, "trick");
  }
}

function label(seat) {
  if (ui.mode === "replay") return `Seat ${seat}`;
  return seat === 0 ? "You" : `Seat ${seat}`;
}

// Relative position r (0 = the bottom) around the table, clockwise as seen from above, so
// the seat on your left sits on the left of the screen.
function position(seat, you, n, radiusX, radiusY) {
  const angle = (2 * Math.PI * ((seat - you + n) % n)) / n;
  return { x: 50 - radiusX * Math.sin(angle), y: 50 + radiusY * Math.cos(angle) };
}

function renderSeats(table, you, name) {
  const box = $("seats");
  box.replaceChildren();
  for (let seat = 0; seat < table.players; seat++) {
    if (ui.mode === "play" && seat === you) continue; // your hand is drawn below the table
    const div = el("div", "seat");
    div.dataset.seat = seat;
    const where = position(seat, you, table.players, 38, 36);
    div.style.left = `${where.x}%`;
    div.style.top = `${where.y}%`;
    if (seat === table.current) div.classList.add("to-act");
    const title = el("div", "seat-name", name(seat));
    const spec = ui.mode === "replay" ? ui.replay.frame.seats[seat] : ui.seats[seat];
    title.append(el("span", "spec", spec));
    div.append(title, badges(table, seat));
    const hand = table.hands[seat];
    if (hand) {
      div.append(cardRow(hand, "mini"));
    } else {
      div.append(el("div", "backs", `${table.hand_sizes[seat]} cards`));
    }
    box.append(div);
  }
}

function badges(table, seat) {
  const row = el("div", "badges");
  if (seat === table.dealer) row.append(el("span", "badge dealer", "dealer"));
  if (seat === table.picker) row.append(el("span", "badge picker", "picker"));
  if (table.passed.includes(seat) && table.phase === "pick") row.append(el("span", "badge passed", "passed"));
  if (table.leaster) row.append(el("span", "badge leaster", "leaster"));
  row.append(el("span", "badge vc", `${table.victory_cards[seat]} VC`));
  return row;
}

function renderTrick(table, you, event) {
  const box = $("trick");
  box.replaceChildren();
  let cards = table.trick;
  let leader = table.leader;
  let winner = null;
  if (event && event.kind === "play" && cards.length === 0 && table.last_trick) {
    cards = table.last_trick.cards; // keep the finished trick in view for its pause
    leader = table.last_trick.leader;
    winner = table.last_trick.winner;
  }
  cards.forEach((name, i) => {
    const seat = (leader + i) % table.players;
    const card = cardElement(name);
    const where = position(seat, you, table.players, 12, ui.mode === "replay" ? 14 : 17);
    card.style.left = `${where.x}%`;
    card.style.top = `${where.y}%`;
    card.dataset.seat = seat;
    if (seat === winner) card.classList.add("winner");
    box.append(card);
  });
}

function renderScores(table, name) {
  const body = $("scores").querySelector("tbody");
  body.replaceChildren();
  for (let seat = 0; seat < table.players; seat++) {
    const row = el("tr");
    const roles = [seat === table.dealer ? "D" : "", seat === table.picker ? "P" : ""].join(" ");
    row.append(
      el("td", "", name(seat)),
      el("td", "roles", roles.trim()),
      el("td", "", table.victory_cards[seat]),
      el("td", "", table.points[seat]),
      el("td", "", table.tricks_won[seat]),
    );
    if (seat === table.current) row.classList.add("to-act");
    body.append(row);
  }
}

function renderLastTrick(table, name) {
  const box = $("last-trick");
  box.replaceChildren();
  const last = table.last_trick;
  if (!last) {
    box.textContent = "none yet";
    return;
  }
  last.cards.forEach((card, i) => {
    const seat = (last.leader + i) % table.players;
    const cell = el("div", "played");
    const face = cardElement(card, "mini");
    if (seat === last.winner) face.classList.add("winner");
    cell.append(face, el("div", "who", name(seat)));
    box.append(cell);
  });
  box.append(el("div", "note", `${name(last.winner)} took ${last.points}`));
}

function renderPrompt(message) {
  const box = $("prompt");
  box.replaceChildren();
  const table = message.table;
  if (message.summary || table.phase === "done") return;
  const mine = message.legal.length > 0;
  if (!mine) {
    box.append(el("div", "waiting", `${label(table.current)} to ${verb(table.phase)}…`));
    return;
  }
  if (table.phase === "pick") {
    box.append(el("div", "ask", "Pick the Boon or pass?"));
    const buttons = el("div", "choices");
    for (const action of message.legal) {
      const button = el("button", `choice ${action}`, action === "pick" ? "Pick" : "Pass");
      button.dataset.action = action;
      button.addEventListener("click", () => act(action));
      buttons.append(button);
    }
    box.append(buttons);
  } else if (table.phase === "discard") {
    box.append(el("div", "ask", `Bury ${table.to_bury} more card${table.to_bury === 1 ? "" : "s"}: click them in your hand`));
    const boon = el("div", "boon-note");
    boon.append(el("span", "", "The Boon held:"), cardRow(table.boon, "mini"));
    box.append(boon);
    if (table.discards.length) {
      const buried = el("div", "boon-note");
      buried.append(el("span", "", "Buried:"), cardRow(table.discards, "mini"));
      box.append(buried);
    }
  } else {
    box.append(el("div", "ask", table.trick.length === 0 ? "Your lead" : "Your turn"));
  }
}

function verb(phase) {
  return { pick: "decide", discard: "bury", play: "play" }[phase] || "move";
}

function renderHand(message) {
  const box = $("hand");
  box.replaceChildren();
  const table = message.table;
  const hand = table.hands[message.you] || [];
  const ready = ui.queue.length === 0 && !ui.showing;
  const playable = ready && (table.phase === "discard" || table.phase === "play");
  const boon = table.phase === "discard" ? table.boon || [] : [];
  const you = $("you");
  you.replaceChildren(el("strong", "", "Your hand"), badges(table, message.you));
  for (const name of hand) {
    const card = cardElement(name);
    if (boon.includes(name)) card.classList.add("from-boon");
    if (playable && message.legal.includes(name)) {
      card.classList.add("legal");
      card.tabIndex = 0;
      card.addEventListener("click", () => act(name));
      card.addEventListener("keydown", (e) => e.key === "Enter" && act(name));
    } else if (playable && message.legal.length > 0) {
      card.classList.add("dimmed"); // your turn, and this card may not be played now
    }
    box.append(card);
  }
  drawAdvice();
}

function describe(event, table, you) {
  const who = label(event.seat);
  const s = event.seat === you && ui.mode === "play" ? "" : "s";
  if (event.kind === "pick") return `${who} pick${s} the Boon`;
  if (event.kind === "pass") return `${who} pass${s === "s" ? "es" : ""}`;
  if (event.kind === "bury") return event.card ? `${who} bur${s ? "ies" : "y"} ${event.card}` : `${who} buries a card`;
  return `${who} play${s} ${event.card}`;
}

function act(action) {
  if (ui.queue.length || ui.showing) return;
  ui.current.legal = []; // no double clicks while the move is on its way
  renderHand(ui.current);
  $("prompt").replaceChildren();
  send({ type: "act", game: ui.game, action });
}

// ------------------------------------------------------------------------------ coach
function showAdvice(message) {
  if (message.game !== ui.game || !ui.current || ui.current.legal.length === 0) return;
  const legal = ui.current.legal;
  const keys = Object.keys(message.policy || message.search || {});
  if (keys.length !== legal.length || !keys.every((key) => legal.includes(key))) return; // stale
  ui.advice = { ...(ui.advice || {}), ...dropNulls(message) };
  drawAdvice();
}

function dropNulls(message) {
  const out = {};
  if (message.policy) out.policy = message.policy;
  if (message.search) out.search = message.search;
  return out;
}

function drawAdvice() {
  document.querySelectorAll(".advice").forEach((node) => node.remove());
  if (!ui.advice || !ui.current || ui.current.legal.length === 0) return;
  const targets = [...document.querySelectorAll("#hand .card.legal, #prompt .choice")];
  for (const target of targets) {
    const action = target.dataset.card || target.dataset.action;
    const box = el("div", "advice");
    if ($("coach").checked && ui.advice.policy && action in ui.advice.policy) {
      const p = ui.advice.policy[action];
      const bar = el("div", "bar");
      bar.style.width = `${Math.max(2, Math.round(p * 100))}%`;
      box.append(el("div", "prob", `${Math.round(p * 100)}%`), bar);
    }
    if (ui.advice.search && action in ui.advice.search) {
      const v = ui.advice.search[action];
      box.append(el("div", "value", `${v >= 0 ? "+" : ""}${v.toFixed(2)}`));
    }
    if (box.childElementCount) target.append(box);
  }
  const parts = [];
  if ($("coach").checked && ui.advice.policy) parts.push("% = the trained model's probability");
  if (ui.advice.search) parts.push("± = the search player's estimate of your Victory Cards this round");
  if (parts.length) $("you").append(el("span", "advice legend", `Coach: ${parts.join(" · ")}`));
}

// ------------------------------------------------------------------------------ summary
function showSummary(message) {
  const summary = message.summary;
  const table = message.table;
  const name = ui.mode === "replay" ? (seat) => `Seat ${seat} · ${ui.replay.frame.seats[seat]}` : label;
  $("summary-title").textContent = ui.mode === "replay" ? "Round over" : `Round ${message.round} over`;
  const text = $("summary-text");
  text.replaceChildren();
  if (summary.leaster) {
    const won = summary.payout.findIndex((paid) => paid > 0);
    text.append(`Everyone passed: a Leaster. ${won >= 0 ? `${name(won)} won it.` : "It is drawn."}`);
  } else {
    text.append(`${name(summary.picker)} picked and buried `, cardRow(summary.discards, "mini"));
  }
  const body = $("summary-table").querySelector("tbody");
  body.replaceChildren();
  for (let seat = 0; seat < table.players; seat++) {
    const row = el("tr");
    const paid = summary.payout[seat];
    row.append(
      el("td", "", name(seat)),
      el("td", "", summary.points[seat]),
      el("td", "", summary.tricks_won[seat]),
      el("td", paid > 0 ? "gain" : paid < 0 ? "loss" : "", `${paid > 0 ? "+" : ""}${paid}`),
      el("td", "", summary.victory_cards[seat]),
    );
    body.append(row);
  }
  const next = $("next-round-button");
  if (message.game_over) {
    text.append(el("div", "game-over", gameOverLine(message.winners, message.you, name)));
    next.textContent = "New game";
  } else {
    next.textContent = "Next round";
  }
  $("summary").classList.remove("hidden");
}

// "You win", "Seat 2 wins", "You and Seat 2 share": the verb agrees with who won.
function gameOverLine(winners, you, name) {
  const verb = winners.length > 1 ? "share" : winners[0] === you ? "win" : "wins";
  return `Game over: ${winners.map(name).join(" and ")} ${verb} the game.`;
}

function closeSummary() {
  $("summary").classList.add("hidden");
}

// ------------------------------------------------------------------------------ replay
function requestFrame(round, step) {
  send({ type: "frame", round, step });
}

function showFrame(message) {
  const replay = ui.replay;
  Object.assign(replay, { round: message.round, rounds: message.rounds, step: message.step, steps: message.steps, frame: message });
  const table = message.table;
  const name = (seat) => `Seat ${seat}`;
  setStatus(`Replay · round ${message.round + 1} of ${message.rounds}`);
  $("replay-where").textContent = `Deal ${message.deal_index}, rotation ${message.rotation} · step ${message.step} of ${message.steps}`;
  const slider = $("step-slider");
  slider.max = message.steps;
  slider.value = message.step;
  renderSeats(table, 0, name);
  renderTrick(table, 0, message.event);
  renderScores(table, name);
  renderLastTrick(table, name);
  const boon = $("replay-boon");
  boon.replaceChildren();
  boon.append(el("div", "", table.picker === null ? "The Boon:" : "The Boon (now the picker's):"), cardRow(table.boon, "mini"));
  if (table.discards.length) boon.append(el("div", "", "Buried:"), cardRow(table.discards, "mini"));
  $("replay-event").textContent = message.event ? describe(message.event, table, -1) : "The deal";
  if (message.summary) showSummary({ ...message, round: message.round + 1 });
  else closeSummary();
}

// Steps are counted from the last frame asked for, so fast clicks are not lost while the
// frames are on their way.
function stepTo(round, step) {
  const replay = ui.replay;
  if (round < 0 || round >= replay.rounds) return;
  const steps = round === replay.round ? replay.steps : Infinity;
  replay.wanted = { round, step: Math.min(Math.max(0, step), steps) };
  requestFrame(replay.wanted.round, replay.wanted.step);
}

function stepForward() {
  const r = ui.replay;
  const at = r.wanted || r;
  if (at.step < r.steps || at.round !== r.round) stepTo(at.round, at.step + 1);
  else if (at.round + 1 < r.rounds) stepTo(at.round + 1, 0);
  else toggleAutoplay(false);
}

function stepBack() {
  const at = ui.replay.wanted || ui.replay;
  stepTo(at.round, at.step - 1);
}

function toggleAutoplay(on) {
  const replay = ui.replay;
  const start = on === undefined ? replay.timer === null : on;
  clearInterval(replay.timer);
  replay.timer = start ? setInterval(stepForward, Math.max(150, delay())) : null;
  $("autoplay").textContent = start ? "❚❚" : "▶▶";
}

// ------------------------------------------------------------------------------ helpers
function el(tag, className = "", text = null) {
  const node = document.createElement(tag);
  if (className) node.className = className;
  if (text !== null) node.textContent = String(text);
  return node;
}

function cardElement(name, size = "") {
  const [suit, rankText] = name.split(" ");
  const rank = Number(rankText);
  const points = (ui.cardPoints[suit] || [])[rank - 1] || 0;
  const card = el("div", `card ${suit} ${size}`.trim());
  card.dataset.card = name;
  card.title = `${name} (${points} points)`;
  card.append(el("span", "rank", rank), el("span", "points", points ? points : ""), el("span", "suit", suit));
  return card;
}

function cardRow(names, size) {
  const row = el("div", "card-row");
  for (const name of names || []) row.append(cardElement(name, size));
  return row;
}

function log(text, kind = "") {
  const list = $("log");
  list.append(el("li", kind, text));
  while (list.childElementCount > 200) list.firstChild.remove();
  list.scrollTop = list.scrollHeight;
}

function setStatus(text, error = false) {
  const status = $("status");
  status.textContent = text;
  status.classList.toggle("error", error);
}

// ------------------------------------------------------------------------------ wiring
function setSpeedLabel() {
  $("speed-label").textContent = `${(delay() / 1000).toFixed(1)} s`;
  localStorage.setItem("boon-speed", $("speed").value);
}

window.addEventListener("DOMContentLoaded", () => {
  const saved = new URLSearchParams(location.search).get("delay") ?? localStorage.getItem("boon-speed");
  if (saved !== null) $("speed").value = saved;
  setSpeedLabel();
  $("speed").addEventListener("input", () => {
    setSpeedLabel();
    if (ui.replay.timer !== null) toggleAutoplay(true);
  });
  $("coach").addEventListener("change", () => {
    if ($("coach").checked && ui.current && ui.current.legal.length && !ui.queue.length) {
      send({ type: "coach", game: ui.game });
    }
    drawAdvice();
  });
  $("ask-search").addEventListener("click", () => {
    $("ask-search").disabled = true;
    send({ type: "coach", game: ui.game, search: true });
  });
  $("new-game").addEventListener("click", () => {
    ui.queue = [];
    closeSummary();
    $("log").replaceChildren();
    send({ type: "new" });
  });
  $("next-round-button").addEventListener("click", () => {
    closeSummary();
    $("log").replaceChildren();
    if (ui.current && ui.current.game_over) send({ type: "new" });
    else send({ type: "next", game: ui.game });
  });
  $("close-summary").addEventListener("click", closeSummary);
  $("prev-round").addEventListener("click", () => stepTo((ui.replay.wanted || ui.replay).round - 1, 0));
  $("next-round").addEventListener("click", () => stepTo((ui.replay.wanted || ui.replay).round + 1, 0));
  $("step-back").addEventListener("click", stepBack);
  $("step-forward").addEventListener("click", stepForward);
  $("autoplay").addEventListener("click", () => toggleAutoplay());
  $("step-slider").addEventListener("input", () => stepTo(ui.replay.round, Number($("step-slider").value)));
  document.addEventListener("keydown", (event) => {
    if (ui.mode !== "replay") return;
    if (event.key === "ArrowRight") stepForward();
    if (event.key === "ArrowLeft") stepBack();
  });
  connect();
});
