// The play page: reads the settings from the address, talks to the server over the
// WebSocket and draws every `layout` and `state` into the DOM contract (docs/web.md, "The
// page"). Each part of the page lives in its own module; this one wires them together.
import { pickLang, setLang, t, translatePage } from "./i18n.js";
import { GAMES, readSettings } from "./settings.js";
import { Connection } from "./connection.js";
import { Board } from "./board.js";
import { Legal } from "./legal.js";
import { attachKeyboard, attachShortcuts } from "./keyboard.js";
import { Promotion } from "./promotion.js";
import { renderMoves } from "./movelist.js";
import { Clocks } from "./clock.js";
import { ResultBox, Replay, resultWords } from "./result.js";
import { Curtain } from "./fog.js";
import { AleaPanel, threatCells } from "./alea.js";
import { renderBook } from "./book.js";
import { arrangeSeats, nameBars, placeSideButtons } from "./seats.js";
import { announce, moveSentence } from "./announce.js";
import { keepAwake } from "./wakelock.js";
import { moveSound, setSound, soundOn } from "./sound.js";
import { setupMenu } from "./menu.js";
import { renderAdaptive, renderDaily } from "./aftergame.js";

const query = new URLSearchParams(location.search);
const pathGame = location.pathname.replace(/^\/+|\/+$/g, "");
const game = GAMES.includes(pathGame) ? pathGame : "chess";
const settings = readSettings(query);
const lang = pickLang(query);
setLang(lang);
translatePage();

const $ = (id) => document.getElementById(id);
const main = $("game");
main.dataset.game = game;
main.dataset.mode = settings.mode;
main.dataset.seating = settings.seating;
document.title = `${t(`game.${game}`)} — Quantum`;
$("title").textContent = t(`game.${game}`);

/** The `new` message of the address's settings. */
function newMessage() {
  const msg = { t: "new", game, mode: settings.mode, level: settings.level, side: settings.side,
    clock: settings.clock, seating: settings.seating, flip: settings.flip };
  if (game === "alea") Object.assign(msg, { classic: settings.classic, daily: settings.daily, guide: settings.guide });
  if (query.get("fen")) msg.fen = query.get("fen");
  if (game === "chess" && settings.chess960) msg.chess960 = true;
  if (game === "chess" && settings.position !== undefined) msg.position = settings.position;
  return msg;
}

let state = null;
let legal = new Legal([]);
let selected = null;
let manualFlip = false;
let dropped = false;            // the last move was dragged: no slide animation

const conn = new Connection(newMessage(), {
  message: receive,
  status: (s) => {
    if (s === "closed") $("status").textContent = t("disconnected");
    else if (s === "connecting" && !state) $("status").textContent = t("connecting");
  },
});
const send = (msg) => conn.send(msg);

const board = new Board($("board"), {
  activate,
  canDrag: (cell) => canAct() && legal.canMove(cell, alea.mode),
  dragStart: (cell) => { selected = cell; draw(); },
  drop: (from, to) => {
    if (to && to !== from && legal.targets(from, alea.mode).has(to)) {
      dropped = true;
      tryMove(from, to);
    } else if (to !== from) {
      selected = null;
      draw();
    }
  },
});
attachKeyboard(board, { activate, cancel });
attachShortcuts(board, {
  flip: () => act("flip"),
  replay: (step) => {
    if (replay.el.hidden) return false;
    replay.step(step);
    return true;
  },
});
const promotion = new Promotion($("promotion"));
const clocks = new Clocks($("clock-white"), $("clock-black"));
const resultBox = new ResultBox($("result"));
const replay = new Replay($("replay"), draw);
const curtain = new Curtain($("curtain"), send);
const alea = new AleaPanel($("alea"), send, () => { selected = null; draw(); });
setupMenu($("menu"), settings, lang, game);
placeSideButtons(settings.mode === "local", send);

/** Whether the page may answer now (its side to move, nothing in the way). */
function canAct() {
  return Boolean(state) && !state.over && !state.thinking && !state.curtain
    && state.people.includes(state.turn) && state.legal.length > 0 && replay.index === null
    && !promotion.open;
}

function activate(cell) {
  if (!canAct()) return;
  const kind = alea.mode;
  if (selected && legal.targets(selected, kind).has(cell)) {
    tryMove(selected, cell);
    return;
  }
  selected = legal.canMove(cell, kind) && cell !== selected ? cell : null;
  draw();
}

function cancel() {
  promotion.cancel();
  selected = null;
  draw();
}

function tryMove(from, to) {
  const options = legal.answers(from, to, alea.mode);
  if (options.length === 1) {
    play(options[0].answer);
  } else if (options.length > 1) {
    promotion.ask(options, state.turn === 0, play, () => {
      selected = null;
      draw();
      board.setFocusCell(to);
    });
  }
}

function play(answer) {
  send({ t: "move", move: answer });
  selected = null;
  if (alea.mode !== "plain") alea.setMode("plain");
  draw();
}

/** The board's orientation: the person's side at the bottom, or the side to move
 * (two people, flip on), turned once more by the Flip button. */
function orientation() {
  const setup = state.setup;
  let flipped = false;
  if (setup.mode === "bot") flipped = state.people[0] === 1;
  else if (setup.seating === "side" && setup.flip && !state.over) {
    flipped = (state.viewer ?? (state.curtain ? state.curtain.next : state.turn)) === 1;
  }
  return flipped !== manualFlip;
}

function draw() {
  if (!state || !board.layout) return;
  const rp = replay.current();
  const marks = {
    last: new Set((rp ? rp.last : state.last) || []),
    check: new Set(rp ? rp.check || [] : state.check),
    fog: new Set(rp ? [] : state.fog),
    lost: new Set(rp ? [] : state.lost),
    threat: rp ? new Set() : threatCells(state),
    selected: new Set(selected ? [selected] : []),
    target: selected ? legal.targets(selected, alea.mode) : new Set(),
  };
  const flipped = orientation();
  board.setOrientation(flipped, state.setup.seating === "face");
  arrangeSeats(main, flipped, state.setup.seating);
  const firstMovable = [...legal.kinds.plain.keys()][0];
  board.render({ pieces: rp ? rp.pieces : state.pieces, marks, hidePieces: Boolean(state.curtain),
    defaultFocus: firstMovable });
  renderMoves($("moves"), state.moves, replay.index, state.first_move || 1);
}

function statusText() {
  if (state.over) return t("over");
  if (state.thinking) return t("thinking");
  if (state.curtain) return t("lift", { side: t(state.curtain.next === 0 ? "white" : "black") });
  if (state.setup.mode === "bot" && state.people.includes(state.turn)) return t("your.turn");
  return t("turn", { side: t(state.turn === 0 ? "white" : "black") });
}

function drawNote() {
  const el = $("draw-note");
  const a = state.draw_answer;
  let text = "";
  if (a) {
    text = a.accepted === true ? t("draw.accepted") : a.accepted === false ? t("draw.declined")
      : t("draw.wait", { n: a.wait });
  } else if (state.draw_offer !== null && state.draw_offer !== undefined && !state.over) {
    text = t("draw.offered", { side: t(state.draw_offer === 0 ? "white" : "black") });
  }
  el.textContent = text;
  el.hidden = !text;
}

function buttons() {
  const s = state;
  const bot = s.setup.mode === "bot";
  const live = !s.over;
  const set = (sel, disabled) => { for (const b of document.querySelectorAll(sel)) b.disabled = disabled; };
  const own = s.moves.some((m) => s.people.includes(m[0]));
  const undo = document.querySelector("[data-action=undo]");
  undo.disabled = !live || s.thinking || !(s.undos_left > 0) || !own || Boolean(s.curtain);
  undo.textContent = s.undos_left > 0 && s.undos_left < 1000000
    ? t("undo.count", { n: s.undos_left }) : t("undo");
  if (bot) {
    set("#actions [data-action=resign]", !live);
    set("#actions [data-action=draw]", !live || s.thinking || s.draw_answer?.accepted === null);
  } else {
    for (const side of ["w", "b"]) {
      const i = side === "w" ? 0 : 1;
      const drawButton = document.querySelector(`[data-action=draw][data-side=${side}]`);
      drawButton.disabled = !live || s.draw_offer === i;
      drawButton.textContent = s.draw_offer === 1 - i ? t("draw.accept") : t("draw");
      document.querySelector(`[data-action=resign][data-side=${side}]`).disabled = !live;
    }
  }
  const reset = document.querySelector("[data-action=reset-adaptive]");
  reset.hidden = !(bot && s.setup.level === "adaptive");
  reset.disabled = s.thinking;
  set("[data-action=guide]", !live);
}

function receive(msg) {
  if (msg.t === "layout") {
    board.setLayout(msg);
    $("board").setAttribute("aria-label", t("board", { game: t(`game.${msg.game}`) }));
    return;
  }
  if (msg.t === "error") {
    $("error").textContent = msg.text;
    dropped = false;
    if (!state) $("status").textContent = t("error");
    return;
  }
  if (msg.t !== "state") return;
  const prev = state;
  state = msg;
  legal = new Legal(state.legal);
  const sameGame = prev && prev.id === state.id;
  if (!sameGame) {
    replay.index = null;
    manualFlip = false;
  }
  if (!sameGame || prev.moves.length !== state.moves.length || !canAct()
      || (selected && !legal.canMove(selected, alea.mode))) {
    selected = null;
    promotion.close();
  }
  $("error").textContent = "";
  Object.assign(main.dataset, {
    game: state.setup.game, mode: state.setup.mode, seating: state.setup.seating,
    turn: state.turn === 0 ? "white" : "black", over: state.over ? "1" : "0",
    thinking: state.thinking ? "1" : "0", ply: String(state.moves.length),
  });
  $("status").textContent = statusText();
  $("title").textContent = t(`game.${game}`) + (state.setup.chess960 ? " 960" : "");
  nameBars(state.names);
  for (const [i, id] of ["bar-white", "bar-black"].entries()) {
    $(id).classList.toggle("thinking", state.thinking && state.turn === i);
    $(id).classList.toggle("to-move", !state.over && state.turn === i);
  }
  clocks.update(state);
  replay.update(state);
  resultBox.update(state);
  curtain.update(state);
  alea.update(state, legal, canAct());
  renderBook($("opening"), $("book"), state,
    (move) => canAct() && alea.mode === "plain" && state.legal.includes(move), play);
  renderAdaptive($("adaptive"), state.adaptive);
  renderDaily($("daily"), state.daily);
  drawNote();
  buttons();
  draw();
  let words = moveSentence(prev, state);
  if (state.over && state.result && !(sameGame && prev.over)) {
    words = [words, resultWords(state.result)].filter(Boolean).join(". ");
  }
  if (words) announce($("announce"), words);
  if (sameGame && state.moves.length > prev.moves.length) {
    if (state.last && !dropped) board.animate(state.last[0], state.last[1]);
    const to = state.last?.[1];
    moveSound(state.check.length ? "check" : to && prev.pieces[to] ? "capture" : "move");
  }
  dropped = false;
  keepAwake(!state.over);
  main.dataset.ready = "1";
}

function soundButton() {
  document.querySelector("[data-action=sound]").setAttribute("aria-pressed", String(soundOn()));
}

function act(action) {
  if (!state && action !== "new" && action !== "sound") return;
  switch (action) {
    case "new":
      selected = null;
      conn.newGame();
      break;
    case "flip":
      manualFlip = !manualFlip;
      draw();
      break;
    case "undo":
      send({ t: "undo" });
      break;
    case "draw":
      send({ t: "draw", side: state.people[0] === 1 ? "b" : "w" });
      break;
    case "resign":
      send({ t: "resign", side: state.people[0] === 1 ? "b" : "w" });
      break;
    case "guide":
      send({ t: "guide", on: !state.guide?.on });
      break;
    case "sound":
      setSound(!soundOn());
      soundButton();
      break;
    case "reset-adaptive":
      send({ t: "reset_adaptive" });
      break;
    default:
      break;
  }
}

$("moves").addEventListener("click", (event) => {
  const li = event.target.closest("li");
  if (li && !replay.el.hidden) replay.goTo([...$("moves").children].indexOf(li) + 1);
});
soundButton();
for (const button of $("actions").querySelectorAll("button[data-action]")) {
  button.addEventListener("click", () => act(button.dataset.action));
}
document.addEventListener("keydown", (event) => {
  if (event.key === "Escape" && promotion.open) promotion.cancel();
});
document.querySelector(".menu-toggle").addEventListener("click", () => {
  $("menu-title").scrollIntoView({ behavior: "smooth" });
  $("menu").querySelector("select")?.focus({ preventScroll: true });
});
