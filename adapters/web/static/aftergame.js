// After the game: what Benlik (the adaptive level) changed, and the Daily Dice lines with
// a share line and its copy button.
import { t } from "./i18n.js";

function para(text, cls) {
  const p = document.createElement("p");
  p.textContent = text;
  if (cls) p.className = cls;
  return p;
}

export function renderAdaptive(el, lines) {
  el.replaceChildren();
  el.hidden = !lines || lines.length === 0;
  if (el.hidden) return;
  const h = document.createElement("h2");
  h.textContent = t("adaptive");
  el.append(h);
  if (lines.length === 1 && lines[0] === "reset") {
    el.append(para(t("adaptive.reset")));
    return;
  }
  const ul = document.createElement("ul");
  for (const line of lines) {
    const li = document.createElement("li");
    li.textContent = line;
    ul.append(li);
  }
  el.append(ul);
}

export function renderDaily(el, daily) {
  el.replaceChildren();
  el.hidden = !daily;
  if (!daily) return;
  const h = document.createElement("h2");
  h.textContent = t("daily.title", { date: daily.date });
  el.append(h);
  for (const line of daily.lines || []) {
    if (line !== daily.share) el.append(para(line));
  }
  if (daily.share) {
    const row = document.createElement("p");
    row.className = "share";
    const text = document.createElement("output");
    text.textContent = daily.share;
    const button = document.createElement("button");
    button.type = "button";
    button.dataset.action = "copy";
    button.textContent = t("copy");
    button.addEventListener("click", async () => {
      try {
        await navigator.clipboard.writeText(daily.share);
      } catch {
        const range = document.createRange();
        range.selectNodeContents(text);
        getSelection().removeAllRanges();
        getSelection().addRange(range);
        document.execCommand("copy");
      }
      button.textContent = t("copied");
    });
    row.append(text, button);
    el.append(row);
  }
}
