// The play page's settings menu (#menu): the same settings as the index page; Start
// reloads the page with the new query string (a new game).
import { buildForm, formSettings, queryOf } from "./settings.js";

export function setupMenu(form, settings, lang, game) {
  buildForm(form.querySelector(".fields"), settings, lang);
  form.addEventListener("submit", (event) => event.preventDefault());
  form.querySelector("[data-action=start]").addEventListener("click", () => {
    location.assign(`${location.pathname}${queryOf(formSettings(form), game)}`);
  });
}
