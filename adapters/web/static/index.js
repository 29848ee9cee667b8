// The index page: the five games' links, carrying the settings form's query string.
import { pickLang, setLang, t, translatePage } from "./i18n.js";
import { readSettings, queryOf, buildForm, formSettings } from "./settings.js";

const query = new URLSearchParams(location.search);
const browserLang = pickLang(new URLSearchParams());
let lang = pickLang(query);
const form = document.getElementById("settings");

/** Every game link's href: its address and the form's non-default settings. */
function updateLinks() {
  const s = formSettings(form);
  if (s.lang === browserLang && !query.has("lang")) delete s.lang;
  for (const a of document.querySelectorAll(".games a")) {
    const game = a.closest("[data-game]").dataset.game;
    a.href = `/${game}${queryOf(s, game)}`;
  }
}

function render(settings) {
  setLang(lang);
  translatePage();
  document.title = t("title.index");
  buildForm(form, settings, lang);
  updateLinks();
}

form.addEventListener("change", (event) => {
  if (event.target.name === "lang" && event.target.value !== lang) {
    lang = event.target.value;
    query.set("lang", lang);
    history.replaceState(null, "", `?${query}`);
    render(formSettings(form));
    return;
  }
  updateLinks();
});
form.addEventListener("submit", (event) => event.preventDefault());
render(readSettings(query));
