// The card table in the browser, for every game the server offers. The server decides
// everything: this page draws the states it receives (one per move, shown one at a time at the
// chosen pace) and sends the person's moves. Nothing here knows a game by name: the server's
// hello says how to draw each game's cards, and each state says what to draw. Protocol:
// docs/web.md.
"use strict";

const $ = (id) => document.getElementById(id);
const STORE = "boon-game"; // sessionStorage: the game this tab plays, to resume it

const ui = {
  socket: null,
  hello: null, // the server's hello
  mode: null, // "play" or "replay"
  gameName: null, // the game being played or replayed
  seats: [], // agent specs by seat
  names: [], // what each seat is called
  game: null, // the id of the game being played
  queue: [], // state messages not yet shown
  showing: false, // a message is on screen for its pause
  current: null, // the last state shown
  advice: null, // the coach's advice on the decision on screen
  selected: [], // cards chosen to bury, in order (select-then-confirm)
  locked: null, // the decision on screen while the person's move is on its way
  joining: false,
  retries: 0,
  replay: { round: 0, rounds: 0, step: 0, steps: 0, frame: null, timer: null },
};

// ------------------------------------------------------------------------------ connection
function connect() {
  const scheme = location.protocol === "https:" ? "wss" : "ws";
  ui.socket = new WebSocket(`${scheme}://${location.host}/ws`);
  ui.socket.addEventListener("message", (event) => receive(JSON.parse(event.data)));
  ui.socket.addEventListener("close", reconnectLater);
}

// A dropped connection is opened again; the game resumes by its id (see hello).
function reconnectLater() {
  ui.retries += 1;
  const wait = Math.min(10, ui.retries) * 1000;
  setStatus(`connection lost; reconnecting in ${wait / 1000} s…`, true);
  setTimeout(connect, wait);
}

function send(message) {
  if (ui.socket && ui.socket.readyState === WebSocket.OPEN) ui.socket.send(JSON.stringify(message));
}

function receive(message) {
  switch (message.type) {
    case "hello":
      return hello(message);
    case "joined":
      return joined(message);
    case "state":
      if (message.game !== ui.game) return; // a reply about a game this page left
      ui.queue.push(message);
      return pump();
    case "coach":
      return showAdvice(message);
    case "losses":
      return showLosses(message);
    case "frame":
      return showFrame(message);
    case "error":
      return serverError(message.error);
  }
}

function hello(message) {
  ui.retries = 0;
  ui.hello = message;
  ui.mode = message.mode;
  document.body.classList.remove("mode-play", "mode-replay");
  document.body.classList.add(`mode-${message.mode}`);
  if (message.mode === "replay") {
    useGame(message.game);
    ui.replay.rounds = message.rounds;
    return requestFrame(ui.replay.round, ui.replay.step);
  }
  if (!message.coach) $("coach-control").classList.add("hidden");
  const saved = stored();
  if (saved && saved.server === message.server && saved.asked !== asked()) {
    // The address asks for a game (?game=bon&coach) other than the one this tab was playing.
    sessionStorage.removeItem(STORE);
    return startGame(defaultSetup());
  }
  if (saved && saved.server === message.server) {
    ui.joining = true;
    return send({ type: "join", game: saved.id });
  }
  if (saved) {
    sessionStorage.removeItem(STORE);
    showNotice(
      "The server was restarted since your game began, so that game could not be resumed. " +
        "Its finished rounds were saved on the server as a replay. Choose a new game.",
    );
    return openSetup();
  }
  startGame(defaultSetup());
}

// What the address asks of a new game (?game=, ?coach, ?players=, ?seed=), as one string.
function asked() {
  const params = new URLSearchParams(location.search);
  return ["game", "coach", "players", "seed"].map((key) => `${key}=${params.get(key)}`).join("&");
}

function stored() {
  try {
    return JSON.parse(sessionStorage.getItem(STORE));
  } catch {
    return null;
  }
}

function joined(message) {
  ui.game = message.game;
  ui.joining = false;
  ui.seats = message.seats;
  ui.queue = [];
  useGame(message.game_name);
  $("coach").checked = Boolean(message.coach && ui.hello.coach);
  sessionStorage.setItem(STORE, JSON.stringify({ id: message.game, server: ui.hello.server, asked: asked() }));
}

function serverError(text) {
  if (ui.joining) {
    // The game we played before a reload or a dropped connection is gone.
    ui.joining = false;
    sessionStorage.removeItem(STORE);
    const idle = ui.hello ? ui.hello.idle_timeout : 0;
    showNotice(`Your game could not be resumed: it was left idle for over ${idle} s and dropped. Choose a new game.`);
    return openSetup();
  }
  if (ui.locked) {
    ui.current = ui.locked; // the move was refused: let the person try again
    ui.locked = null;
    renderHand(ui.current);
  }
  setStatus(`error: ${text}`, true);
}

function useGame(name) {
  ui.gameName = name;
  const offer = ui.hello.games[name];
  $("game-title").textContent = offer.title;
  document.title = offer.title;
}

function offer() {
  return ui.hello.games[ui.gameName];
}

// ------------------------------------------------------------------------------ setup
function defaultSetup() {
  const params = new URLSearchParams(location.search);
  const name = params.get("game") in ui.hello.games ? params.get("game") : ui.hello.game;
  const setup = { type: "new", game_name: name, coach: $("coach").checked || params.has("coach") };
  const players = Number(params.get("players"));
  if (ui.hello.games[name].players.includes(players)) setup.players = players;
  if (params.get("seed") !== null && /^\d+$/.test(params.get("seed"))) setup.seed = Number(params.get("seed"));
  return setup;
}

function startGame(setup) {
  ui.queue = [];
  ui.current = null;
  ui.advice = null;
  closeDialogs();
  $("log").replaceChildren();
  $("review").replaceChildren();
  hideNotice();
  send(setup);
}

function openSetup() {
  const games = $("setup-game");
  games.replaceChildren();
  for (const [name, game] of Object.entries(ui.hello.games)) {
    const option = el("option", "", game.title);
    option.value = name;
    games.append(option);
  }
  games.value = ui.gameName || ui.hello.game;
  fillSetupChoices();
  $("setup-coach").checked = $("coach").checked || !ui.game;
  $("setup-coach").disabled = !ui.hello.coach;
  showDialog("setup");
  games.focus();
}

function fillSetupChoices() {
  const game = ui.hello.games[$("setup-game").value];
  const players = $("setup-players");
  players.replaceChildren(...game.players.map((n) => optionOf(n, `${n} players`)));
  players.value = game.default_players;
  const opponents = $("setup-opponents");
  opponents.replaceChildren(...game.opponents.map((spec) => optionOf(spec, spec)));
}

function optionOf(value, text) {
  const option = el("option", "", text);
  option.value = value;
  return option;
}

function submitSetup(event) {
  event.preventDefault();
  const setup = {
    type: "new",
    game_name: $("setup-game").value,
    players: Number($("setup-players").value),
    opponents: $("setup-opponents").value,
    coach: $("setup-coach").checked,
  };
  const seed = $("setup-seed").value.trim();
  if (seed !== "") setup.seed = Number(seed);
  startGame(setup);
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
    event && (event.seat !== message.you || trickJustEnded(message)) && ui.queue.length > 0 ? delay() : 0;
  setTimeout(() => {
    ui.showing = false;
    if (ui.queue.length === 0) settle(message);
    pump();
  }, pause);
}

function trickJustEnded(message) {
  const table = message.table;
  return Boolean(table.trick && message.event && message.event.kind === "play" && table.trick.length === 0);
}

// The last state is on screen: let the person act, or show the round's summary.
function settle(message) {
  if (message.summary) return showSummary(message);
  if (message.legal.length > 0) {
    ui.advice = null;
    ui.selected = [];
    if ($("coach").checked) {
      $("coach-line").textContent = "Coach: thinking…";
      send({ type: "coach", game: ui.game, search: true });
    }
  }
  renderHand(message);
}

// ------------------------------------------------------------------------------ drawing
function render(message) {
  ui.current = message;
  ui.locked = null;
  ui.names = message.names;
  const table = message.table;
  setStatus(`Round ${message.round}${message.game_over ? " · game over" : ""}`);
  drawTable(table, message.you, message.event);
  if (message.review) showReview(message.review);
  renderHand(message);
  if (message.event) log(describe(message.event, message.you));
  for (const event of message.events || []) log(describe(event, message.you), event.kind === "trick" ? "trick" : "");
}

// What the play and the replay share: the seats, the trick or pile, notes, scores, last trick.
function drawTable(table, you, event) {
  renderSeats(table, you);
  renderTrick(table, you, event);
  renderPile(table);
  renderNotes(table.notes || []);
  renderScores(table);
  renderLastTrick(table);
}

// "1 card", "3 cards".
function plural(count, word) {
  return `${count} ${count === 1 ? word : `${word}s`}`;
}

function label(seat) {
  return ui.names[seat] || `Seat ${seat}`;
}

// Relative position around the table, clockwise as seen from above, so that the seat on your
// left sits on the left of the screen; you sit at the bottom.
function position(seat, you, n, radiusX, radiusY) {
  const angle = (2 * Math.PI * ((seat - you + n) % n)) / n;
  return { x: 50 - radiusX * Math.sin(angle), y: 50 + radiusY * Math.cos(angle) };
}

function renderSeats(table, you) {
  const box = $("seats");
  box.replaceChildren();
  renderReplayHands(table);
  for (let seat = 0; seat < table.players; seat++) {
    if (ui.mode === "play" && seat === you) continue; // your hand is drawn below the table
    const div = el("div", "seat");
    div.dataset.seat = seat;
    const narrow = $("felt").clientWidth < 600;
    const where = position(seat, you, table.players, narrow ? 30 : 36, 38);
    // A seat on a side leans on the felt's edge, clear of the trick in the middle.
    const side = where.x < 40 ? "left" : where.x > 60 ? "right" : "middle";
    div.classList.add(`side-${side}`);
    if (side === "left") div.style.left = "2%";
    else if (side === "right") div.style.right = "2%";
    else div.style.left = `${where.x}%`;
    div.style.top = `${where.y}%`;
    if (seat === table.current) div.classList.add("to-act");
    const title = el("div", "seat-name", label(seat));
    const spec = ui.mode === "replay" ? ui.replay.frame.seats[seat] : ui.seats[seat];
    if (spec) title.append(el("span", "spec", spec));
    div.append(title, badges(table, seat));
    div.append(el("div", "backs", plural(table.hand_sizes[seat], "card")));
    box.append(div);
  }
}

// A replay shows every hand face up, in a list under the table (on the felt they would cover
// the trick on a small screen).
function renderReplayHands(table) {
  const box = $("replay-hands");
  if (ui.mode !== "replay") return box.replaceChildren();
  box.replaceChildren(
    ...table.hands.map((hand, seat) => {
      const row = el("div", "replay-hand");
      row.append(el("span", "replay-hand-name", label(seat)), cardRow(hand || [], "mini"));
      return row;
    }),
  );
}

function badges(table, seat) {
  const row = el("div", "badges");
  for (const badge of table.badges[seat]) row.append(el("span", "badge", badge));
  const first = table.scores.columns[0];
  row.append(el("span", "badge score", `${table.scores.rows[seat][0]} ${first}`));
  return row;
}

function renderTrick(table, you, event) {
  const box = $("trick");
  box.replaceChildren();
  if (!table.trick) return;
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
    // Closer in on a narrow table, where the seats' boxes take more of the width.
    const narrow = $("felt").clientWidth < 600;
    const where = position(seat, you, table.players, narrow ? 10 : 14, narrow ? 13 : 16);
    card.style.left = `${where.x}%`;
    card.style.top = `${where.y}%`;
    card.dataset.seat = seat;
    if (seat === winner) card.classList.add("winner");
    box.append(card);
  });
}

function renderPile(table) {
  const box = $("pile");
  box.replaceChildren();
  if (!table.pile) return;
  box.append(cardElement(table.pile.top), el("div", "active", `Active: ${table.pile.active}`));
}

function renderNotes(notes) {
  $("notes").replaceChildren(...notes.map((note) => el("li", "", note)));
}

function renderScores(table) {
  const scores = table.scores;
  const head = el("tr");
  head.append(el("th", "", "seat"), ...scores.columns.map((column) => el("th", "", column)));
  $("scores").querySelector("thead").replaceChildren(head);
  const body = $("scores").querySelector("tbody");
  body.replaceChildren();
  scores.rows.forEach((row, seat) => {
    const tr = el("tr");
    tr.append(el("td", "", label(seat)), ...row.map((cell) => el("td", "", cell)));
    if (seat === table.current) tr.classList.add("to-act");
    body.append(tr);
  });
}

function renderLastTrick(table) {
  $("last-trick-panel").classList.toggle("hidden", !("last_trick" in table));
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
    cell.append(face, el("div", "who", label(seat)));
    box.append(cell);
  });
  const points = last.points === undefined ? "" : ` ${last.points} points`;
  box.append(el("div", "note", `${label(last.winner)} took it${points}`));
}

// The prompt, the buttons (pick, pass), the hand with its legal cards, the bury bar.
function renderHand(message) {
  const table = message.table;
  const ready = ui.queue.length === 0 && !ui.showing && message === ui.current;
  const options = ready ? message.options || [] : [];
  renderPrompt(message, options);
  const box = $("hand");
  box.replaceChildren();
  const hand = table.hands[message.you] || [];
  const boon = table.boon && table.phase === "discard" ? table.boon : [];
  const playable = new Set(options.filter((o) => o.card).map((o) => o.card));
  const chosen = [...ui.selected];
  hand.forEach((name, index) => {
    const card = cardElement(name, "", "button");
    card.dataset.index = index;
    if (boon.includes(name)) card.classList.add("from-boon");
    const pick = chosen.indexOf(name);
    if (pick >= 0) {
      chosen.splice(pick, 1);
      card.classList.add("selected");
      card.setAttribute("aria-pressed", "true");
    }
    if (playable.has(name)) {
      card.classList.add("legal");
      card.addEventListener("click", () => chooseCard(name, card));
    } else {
      card.tabIndex = -1;
      card.setAttribute("aria-disabled", "true");
      if (playable.size > 0) card.classList.add("dimmed"); // your turn; this card may not go
    }
    box.append(card);
  });
  renderSelectBar(message, ready);
  drawAdvice();
}

function renderPrompt(message, options) {
  const box = $("prompt");
  const choices = $("choices");
  box.replaceChildren();
  choices.replaceChildren();
  const table = message.table;
  if (message.summary) return;
  if (options.length === 0) {
    if (table.current >= 0 && table.current !== message.you) box.append(el("span", "waiting", `${label(table.current)} to play…`));
    return;
  }
  box.append(el("span", "ask", message.prompt.text));
  for (const option of options.filter((o) => !o.card)) {
    const button = el("button", `choice ${option.action}`, option.label || option.action);
    button.dataset.action = option.action;
    if (option.action === "pick") button.classList.add("primary");
    button.addEventListener("click", () => act(option.action));
    choices.append(button);
  }
}

// A card with one action plays it; with several (a Jack's suit, a Queen's swap) it offers them;
// while burying it is chosen, to confirm.
function chooseCard(name, card) {
  const message = ui.current;
  if (!message || ui.queue.length || ui.showing) return;
  const select = message.prompt ? message.prompt.select : 0;
  if (select > 0) return toggleSelected(name, select);
  const mine = message.options.filter((o) => o.card === name);
  if (mine.length === 1) return act(mine[0].action);
  const choices = $("choices");
  choices.replaceChildren(el("span", "ask", `${name}:`));
  for (const option of mine) {
    const button = el("button", "choice", option.label);
    button.dataset.action = option.action;
    button.addEventListener("click", () => act(option.action));
    choices.append(button);
  }
  drawAdvice();
  choices.querySelector("button").focus();
  card.classList.add("selected");
}

function toggleSelected(name, limit) {
  const at = ui.selected.indexOf(name);
  if (at >= 0) ui.selected.splice(at, 1);
  else if (ui.selected.length < limit) ui.selected.push(name);
  renderHand(ui.current);
  const again = [...document.querySelectorAll("#hand .card")].find((c) => c.dataset.card === name);
  if (again) again.focus();
}

function renderSelectBar(message, ready) {
  const select = ready && message.prompt ? message.prompt.select : 0;
  $("select-bar").classList.toggle("hidden", select === 0);
  if (!select) return;
  const count = ui.selected.length;
  $("select-count").textContent = `${count} of ${select} chosen${count ? `: ${ui.selected.join(", ")}` : ""}`;
  $("confirm-select").disabled = count !== select;
  $("confirm-select").textContent = `Bury ${select === 1 ? "it" : `these ${select}`}`;
  $("undo-select").disabled = count === 0;
}

function undoSelected() {
  const name = ui.selected.pop();
  renderHand(ui.current);
  const card = [...document.querySelectorAll("#hand .card.legal")].find((c) => c.dataset.card === name);
  if (card) card.focus();
}

// Each chosen card is one action; they go one after the other, as the server expects.
function confirmSelected() {
  const cards = [...ui.selected];
  if (!ui.current || cards.length !== ui.current.prompt.select) return;
  ui.selected = [];
  lockHand();
  for (const card of cards) send({ type: "act", game: ui.game, action: card });
}

function describe(event, you) {
  if (event.seat === null) return event.they;
  const mine = event.seat === you && ui.mode === "play";
  return `${label(event.seat)} ${mine ? event.you : event.they}`;
}

function act(action) {
  if (!ui.current || ui.queue.length || ui.showing) return;
  lockHand();
  send({ type: "act", game: ui.game, action });
}

function lockHand() {
  ui.locked = ui.current;
  ui.current = { ...ui.current, legal: [], options: [], prompt: null }; // no double taps
  renderHand(ui.current);
  $("coach-line").replaceChildren();
}

// ------------------------------------------------------------------------------ coach
function showAdvice(message) {
  if (message.game !== ui.game || !ui.current || ui.current.legal.length === 0) return;
  const legal = ui.current.legal;
  const keys = Object.keys(message.search || message.policy || {});
  if (keys.length !== legal.length || !keys.every((key) => legal.includes(key))) return; // stale
  ui.advice = message;
  drawAdvice();
}

function signed(value, digits = 2) {
  return `${value >= 0 ? "+" : ""}${value.toFixed(digits)}`;
}

// Each option shows its expected value; the best is marked; a line says what the values mean.
function drawAdvice() {
  document.querySelectorAll(".advice").forEach((node) => node.remove());
  const advice = ui.advice;
  if (!$("coach").checked || !advice || !advice.search || !ui.current || !ui.current.legal.length) {
    if (!$("coach").checked) $("coach-line").replaceChildren();
    return;
  }
  const values = advice.search;
  const byCard = {};
  for (const option of ui.current.options) {
    if (option.card && option.action in values) {
      const best = Math.max(values[option.action], byCard[option.card] ?? -Infinity);
      byCard[option.card] = best;
    }
  }
  for (const card of document.querySelectorAll("#hand .card.legal")) {
    const value = byCard[card.dataset.card];
    if (value === undefined) continue;
    const best = value === values[advice.best];
    card.append(el("span", `advice${best ? " best" : ""}`, `${best ? "★" : ""}${value.toFixed(2)}`));
  }
  for (const button of document.querySelectorAll("#choices .choice")) {
    const value = values[button.dataset.action];
    if (value === undefined) continue;
    const best = button.dataset.action === advice.best;
    button.append(el("span", `advice${best ? " best" : ""}`, `${best ? "★ " : ""}${value.toFixed(2)}`));
  }
  // One plain line; how the values are made is one click away.
  const detail = el("details", "coach-detail");
  detail.append(
    el("summary", "", "How?"),
    el("p", "", `Each number is what the move is worth to you on average, in ${advice.unit}, ` +
      `by the coach's estimate: ${advice.how}.`),
  );
  $("coach-line").replaceChildren(
    `Coach: best is ★ ${advice.best} (${signed(values[advice.best])} ${advice.unit}). `,
    detail,
  );
}

function showReview(review) {
  const cost = review.cost;
  const verdict =
    cost < 0.005
      ? "the best move the coach saw"
      : `the best was ${review.best} (${review.best_value.toFixed(2)}): it cost ${cost.toFixed(2)} ${review.unit}`;
  $("review").textContent = `You chose ${review.action}: expected ${review.value.toFixed(2)} ${review.unit}; ${verdict}.`;
}

// ------------------------------------------------------------------------------ summary
function showSummary(message) {
  const summary = message.summary;
  $("summary-title").textContent = ui.mode === "replay" ? "Round over" : `Round ${message.round} over`;
  const text = $("summary-text");
  text.replaceChildren(...summary.lines.map((line) => el("p", "", line)));
  for (const [title, cards] of Object.entries(summary.cards || {})) {
    const row = el("p", "", `${title}: `);
    row.append(cardRow(cards, "mini"));
    text.append(row);
  }
  const head = el("tr");
  head.append(el("th", "", "seat"), ...summary.columns.map((c) => el("th", "", c)));
  $("summary-table").querySelector("thead").replaceChildren(head);
  const body = $("summary-table").querySelector("tbody");
  body.replaceChildren();
  summary.rows.forEach((row, seat) => {
    const tr = el("tr");
    tr.append(el("td", "", label(seat)));
    for (const cell of row) {
      const text = String(cell);
      tr.append(el("td", text.startsWith("+") ? "gain" : text.startsWith("-") && text !== "-" ? "loss" : "", text));
    }
    body.append(tr);
  });
  const next = $("next-round-button");
  if (message.game_over) {
    text.append(el("div", "game-over", gameOverLine(message.winners, message.you, label)));
    next.textContent = "New game";
  } else {
    next.textContent = "Next round";
  }
  $("round-over").classList.add("hidden");
  askLosses();
  showDialog("summary");
  (ui.mode === "replay" ? $("close-summary") : next).focus();
}

// "You win", "Seat 2 wins", "You and Seat 2 share": the verb agrees with who won.
function gameOverLine(winners, you, name) {
  const verb = winners.length > 1 ? "share" : winners[0] === you ? "win" : "wins";
  return `Game over: ${winners.map(name).join(" and ")} ${verb} the game.`;
}

// With the coach on, the end of a round also shows the points every seat lost per decision
// (the server replays the round and values each decision: this takes a few seconds).
function askLosses() {
  const losses = $("losses");
  if (ui.mode !== "play" || !$("coach").checked) return losses.replaceChildren();
  losses.replaceChildren(el("p", "note", "Coach: reviewing every seat's decisions…"));
  send({ type: "losses", game: ui.game });
}

function showLosses(message) {
  if (message.game !== ui.game) return;
  const table = el("table");
  const head = el("tr");
  for (const title of ["seat", "decisions", "lost per decision", "total", "costliest"]) {
    head.append(el("th", "", title));
  }
  table.append(head);
  for (const seat of message.seats) {
    const worst = seat.worst;
    const costliest = worst ? `${worst.chosen} for ${worst.best} (${worst.loss.toFixed(2)})` : "-";
    const tr = el("tr");
    tr.append(
      el("td", "", seat.agent === "you" ? label(seat.seat) : `${label(seat.seat)} (${seat.agent})`),
      el("td", "", String(seat.decisions)),
      el("td", "", seat.mean_loss.toFixed(3)),
      el("td", "", seat.total_loss.toFixed(2)),
      el("td", "", costliest),
    );
    table.append(tr);
  }
  const wrap = el("div", "table-wrap");
  wrap.append(table);
  $("losses").replaceChildren(
    el("p", "", `Points lost per decision, in ${message.unit}: the best move's value minus the chosen one's.`),
    wrap,
    el("p", "note", `Values: ${message.how}. Forced moves are not counted.`),
  );
}

// Closing the round's summary in a game leaves a bar to see it again or to go on.
function closeSummary() {
  closeDialogs();
  if (ui.mode === "play") {
    $("round-over-next").textContent = $("next-round-button").textContent;
    $("round-over").classList.remove("hidden");
  }
}

function nextRound() {
  $("round-over").classList.add("hidden");
  closeDialogs();
  $("log").replaceChildren();
  $("review").replaceChildren();
  $("losses").replaceChildren();
  if (ui.current && ui.current.game_over) openSetup();
  else send({ type: "next", game: ui.game });
}

// ------------------------------------------------------------------------------ rules
async function showRules() {
  showDialog("rules");
  const name = ui.gameName || (ui.hello && ui.hello.game);
  const box = $("rules-text");
  box.textContent = "loading…";
  $("rules-title").textContent = `Rules: ${ui.hello.games[name].title}`;
  try {
    const response = await fetch(`/rules/${encodeURIComponent(name)}`);
    const rules = await response.json();
    box.replaceChildren(...markdown(rules.markdown));
  } catch {
    box.textContent = "The rules could not be loaded.";
  }
  // Focus the Close button without scrolling to it: the rules open at their first line.
  $("close-rules").focus({ preventScroll: true });
  box.scrollTop = 0;
  $("rules").querySelector(".panel").scrollTop = 0;
}

// A small Markdown reader for the rule pages: headings, paragraphs, lists, tables, **bold**,
// `code`. It builds nodes (never HTML from text), so nothing in the text can run.
function markdown(text) {
  const nodes = [];
  const lines = text.split("\n");
  let i = 0;
  while (i < lines.length) {
    const line = lines[i];
    if (!line.trim()) {
      i++;
    } else if (/^#{1,6} /.test(line)) {
      const level = Math.min(4, line.indexOf(" ") + 1);
      nodes.push(inline(el(`h${level}`), line.replace(/^#+ /, "")));
      i++;
    } else if (line.startsWith("|")) {
      const table = el("table");
      let header = true;
      while (i < lines.length && lines[i].startsWith("|")) {
        const cells = lines[i].split("|").slice(1, -1).map((c) => c.trim());
        if (!cells.every((c) => /^:?-+:?$/.test(c))) {
          const tr = el("tr");
          for (const cell of cells) tr.append(inline(el(header ? "th" : "td"), cell));
          table.append(tr);
          header = false;
        }
        i++;
      }
      nodes.push(table);
    } else if (/^\s*[-*] /.test(line)) {
      // An item's text is joined over its lines first, so **bold** may span them.
      const items = [];
      while (i < lines.length && /^\s*([-*] |\s{2,}\S)/.test(lines[i])) {
        if (/^\s*[-*] /.test(lines[i])) items.push(lines[i].replace(/^\s*[-*] /, ""));
        else items[items.length - 1] += ` ${lines[i].trim()}`;
        i++;
      }
      const list = el("ul");
      for (const item of items) list.append(inline(el("li"), item));
      nodes.push(list);
    } else {
      const words = [];
      while (i < lines.length && lines[i].trim() && !/^(#|\||\s*[-*] )/.test(lines[i])) words.push(lines[i++].trim());
      nodes.push(inline(el("p"), words.join(" ")));
    }
  }
  return nodes;
}

function inline(node, text) {
  for (const part of text.split(/(\*\*[^*]+\*\*|`[^`]+`)/)) {
    if (part.startsWith("**") && part.endsWith("**") && part.length > 4) node.append(el("strong", "", part.slice(2, -2)));
    else if (part.startsWith("`") && part.endsWith("`") && part.length > 2) node.append(el("code", "", part.slice(1, -1)));
    else if (part) node.append(part);
  }
  return node;
}

// ------------------------------------------------------------------------------ dialogs
function showDialog(id) {
  for (const other of ["summary", "setup", "rules"]) if (other !== id) $(other).classList.add("hidden");
  $(id).classList.remove("hidden");
}

function closeDialogs() {
  for (const id of ["summary", "setup", "rules"]) $(id).classList.add("hidden");
}

function showNotice(text) {
  $("notice").textContent = text;
  $("notice").classList.remove("hidden");
}

function hideNotice() {
  $("notice").classList.add("hidden");
}

// ------------------------------------------------------------------------------ replay
function requestFrame(round, step) {
  send({ type: "frame", round, step });
}

function showFrame(message) {
  const replay = ui.replay;
  Object.assign(replay, { round: message.round, rounds: message.rounds, step: message.step, steps: message.steps, frame: message });
  ui.names = message.names;
  const table = message.table;
  setStatus(`Replay · round ${message.round + 1} of ${message.rounds}`);
  $("replay-where").textContent = `Deal ${message.deal_index}, rotation ${message.rotation} · step ${message.step} of ${message.steps}`;
  const slider = $("step-slider");
  slider.max = message.steps;
  slider.value = message.step;
  drawTable(table, 0, message.event);
  const extra = $("replay-extra");
  extra.replaceChildren();
  if (table.boon) {
    extra.append(el("div", "", table.picker === null ? "The Boon:" : "The Boon (now the picker's):"), cardRow(table.boon, "mini"));
    if (table.discards.length) extra.append(el("div", "", "Buried:"), cardRow(table.discards, "mini"));
  }
  const said = [message.event, ...(message.events || [])].filter(Boolean).map((e) => describe(e, -1));
  $("replay-event").textContent = said.length ? said.join("; ") : "The deal";
  if (message.summary) showSummary({ ...message, round: message.round + 1 });
  else closeDialogs();
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

// A card drawn from the game's faces: its suit's colour and symbol, its rank, its points.
function cardElement(name, size = "", tag = "div") {
  const faces = ui.hello ? offer().faces : { cards: {}, suits: {} };
  const [suit, rank, corner] = faces.cards[name] || ["", name, ""];
  const symbol = (faces.suits[suit] || {}).symbol || "";
  const card = el(tag, `card ${suit} ${size}`.trim());
  if (tag === "button") card.type = "button";
  card.dataset.card = name;
  card.title = corner ? `${name} (${corner} points)` : name;
  card.setAttribute("aria-label", card.title);
  card.append(el("span", "rank", rank), el("span", "corner-suit", symbol), el("span", "symbol", symbol), el("span", "points", corner));
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

// ------------------------------------------------------------------------------ keys
function onKey(event) {
  if (event.target.closest("input, select, textarea")) return;
  const open = ["summary", "setup", "rules"].find((id) => !$(id).classList.contains("hidden"));
  if (event.key === "Escape" && open) {
    if (open === "summary") closeSummary();
    else closeDialogs();
    return;
  }
  if (ui.mode === "replay") {
    if (event.key === "ArrowRight") stepForward();
    if (event.key === "ArrowLeft") stepBack();
    return;
  }
  if (open) return;
  const key = event.key.toLowerCase();
  if (key === "n") return openSetup();
  if (key === "c") return confirmSelected();
  if (key === "u") return undoSelected();
  if (/^[1-9]$/.test(key)) return pressNth(Number(key) - 1);
  if (key === "arrowright" || key === "arrowleft") moveFocus(key === "arrowright" ? 1 : -1, event);
}

function pressNth(index) {
  const targets = [...document.querySelectorAll("#choices .choice, #hand .card.legal")];
  if (targets[index]) targets[index].click();
}

function moveFocus(step, event) {
  const cards = [...document.querySelectorAll("#hand .card.legal")];
  if (!cards.length) return;
  const at = cards.indexOf(document.activeElement);
  cards[(at + step + cards.length) % cards.length].focus();
  event.preventDefault();
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
      send({ type: "coach", game: ui.game, search: true });
    }
    drawAdvice();
  });
  $("new-game").addEventListener("click", openSetup);
  $("setup-game").addEventListener("change", fillSetupChoices);
  $("setup-form").addEventListener("submit", submitSetup);
  $("setup-cancel").addEventListener("click", closeDialogs);
  $("show-rules").addEventListener("click", showRules);
  $("close-rules").addEventListener("click", closeDialogs);
  $("next-round-button").addEventListener("click", nextRound);
  $("close-summary").addEventListener("click", closeSummary);
  $("round-over-summary").addEventListener("click", () => showDialog("summary"));
  $("round-over-next").addEventListener("click", nextRound);
  $("undo-select").addEventListener("click", undoSelected);
  $("confirm-select").addEventListener("click", confirmSelected);
  $("prev-round").addEventListener("click", () => stepTo((ui.replay.wanted || ui.replay).round - 1, 0));
  $("next-round").addEventListener("click", () => stepTo((ui.replay.wanted || ui.replay).round + 1, 0));
  $("step-back").addEventListener("click", stepBack);
  $("step-forward").addEventListener("click", stepForward);
  $("autoplay").addEventListener("click", () => toggleAutoplay());
  $("step-slider").addEventListener("input", () => stepTo(ui.replay.round, Number($("step-slider").value)));
  document.addEventListener("keydown", onKey);
  connect();
});
