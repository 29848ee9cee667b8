// The game settings of the query string (docs/web.md): reading them, writing them back
// (defaults left out, so a plain link stays plain) and the settings form shared by the
// index page and the play page's menu.
import { t, LANGS } from "./i18n.js";

export const GAMES = ["chess", "grand", "hexagonal", "fogofwar", "alea"];
export const CHOICES = {
  mode: ["bot", "local"],
  level: ["beginner", "easy", "normal", "hard", "adaptive"],
  side: ["white", "black", "random"],
  clock: ["none", "180+2", "300+3", "600+5", "900+10"],
  seating: ["side", "face"],
};
export const FLAGS = ["flip", "classic", "daily", "guide", "chess960"];
/** The game a flag belongs to (the server refuses it for the others); flip is everyone's. */
export const FLAG_GAME = { classic: "alea", daily: "alea", guide: "alea", chess960: "chess" };
const CLOCK_NAMES = { "180+2": "3+2", "300+3": "5+3", "600+5": "10+5", "900+10": "15+10" };

/** The settings named by a URLSearchParams, defaults filled in. A value the page does
 * not know is kept: the server judges it and the page shows its error. */
export function readSettings(query) {
  const s = {};
  for (const [key, allowed] of Object.entries(CHOICES)) {
    // A "+" in a query string reads as a space: "clock=300+5" means 300+5.
    const value = query.get(key)?.replace(/ /g, "+");
    s[key] = value || allowed[key === "level" ? 2 : 0];
  }
  for (const key of FLAGS) s[key] = query.has(key) && !["0", "false"].includes(query.get(key));
  if (LANGS.includes(query.get("lang"))) s.lang = query.get("lang");
  if (/^\d{1,3}$/.test(query.get("position") || "")) s.position = Number(query.get("position"));
  return s;
}

/** The query string ("" or "?...") of settings s for game, leaving out every default
 * (and a game's own flags for the other games). */
export function queryOf(s, game) {
  const q = new URLSearchParams();
  const defaults = readSettings(new URLSearchParams());
  for (const key of Object.keys(CHOICES)) if (s[key] !== defaults[key]) q.set(key, s[key]);
  for (const key of FLAGS) if (s[key] && (!FLAG_GAME[key] || FLAG_GAME[key] === game)) q.set(key, "1");
  if (s.chess960 && game === "chess" && s.position !== undefined) q.set("position", s.position);
  if (s.lang) q.set("lang", s.lang);
  const text = q.toString().replace(/%2B/g, "+");
  return text ? `?${text}` : "";
}

function field(label, control) {
  const wrap = document.createElement("label");
  wrap.className = "field";
  const span = document.createElement("span");
  span.textContent = label;
  wrap.append(span, control);
  return wrap;
}

function select(name, values, current, labelOf) {
  const sel = document.createElement("select");
  sel.name = name;
  for (const v of values) {
    const opt = document.createElement("option");
    opt.value = v;
    opt.textContent = labelOf(v);
    opt.selected = v === current;
    sel.append(opt);
  }
  return sel;
}

function checkbox(name, checked) {
  const box = document.createElement("input");
  box.type = "checkbox";
  box.name = name;
  box.checked = checked;
  return box;
}

/** Fill form with the settings controls, set to s (lang: the page's language). */
export function buildForm(form, s, lang) {
  form.replaceChildren();
  for (const key of Object.keys(CHOICES)) {
    const values = CHOICES[key].includes(s[key]) ? CHOICES[key] : [...CHOICES[key], s[key]];
    const labelOf = key === "clock"
      ? (v) => (v === "none" ? t("clock.none") : CLOCK_NAMES[v] || v)
      : (v) => (CHOICES[key].includes(v) ? t(`${key}.${v}`) : v);
    form.append(field(t(key), select(key, values, s[key], labelOf)));
  }
  for (const key of FLAGS) {
    const row = field(t(key === "guide" ? "guide.setting" : key), checkbox(key, s[key]));
    row.classList.add("check");
    form.append(row);
  }
  form.append(field(t("lang"), select("lang", LANGS, lang, (v) => ({ en: "English", tr: "Türkçe" })[v])));
}

/** The settings the form shows now. */
export function formSettings(form) {
  const s = {};
  for (const key of Object.keys(CHOICES)) s[key] = form.elements[key].value;
  for (const key of FLAGS) s[key] = form.elements[key].checked;
  s.lang = form.elements.lang.value;
  return s;
}
