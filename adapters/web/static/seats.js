// Who sits where: which player bar is at the top, the face-to-face seating (the far
// player's bar, clock and pieces turned 180°), and in local play each side's own resign
// and draw buttons inside its bar.
import { t } from "./i18n.js";

/** Put resign and draw buttons into each bar (two people) or leave them in #actions. */
export function placeSideButtons(local, send) {
  const actions = document.getElementById("actions");
  for (const action of ["resign", "draw"]) {
    const shared = actions.querySelector(`[data-action=${action}]`);
    if (local && shared) shared.remove();
  }
  if (!local) return;
  for (const side of ["w", "b"]) {
    const box = document.querySelector(`#bar-${side === "w" ? "white" : "black"} .side-actions`);
    box.replaceChildren();
    for (const action of ["draw", "resign"]) {
      const button = document.createElement("button");
      button.type = "button";
      button.dataset.action = action;
      button.dataset.side = side;
      button.textContent = t(action);
      button.addEventListener("click", () => send({ t: action, side }));
      box.append(button);
    }
  }
}

/** Order the bars around the board (the bottom player's bar below) and mark the seating. */
export function arrangeSeats(main, flipped, seating) {
  main.dataset.seating = seating;
  main.classList.toggle("flipped", flipped);
  const area = main.querySelector(".board-area");
  const top = document.getElementById(flipped ? "bar-white" : "bar-black");
  const bottom = document.getElementById(flipped ? "bar-black" : "bar-white");
  const wrap = area.querySelector(".board-wrap");
  if (wrap.previousElementSibling !== top) area.insertBefore(top, wrap);
  if (wrap.nextElementSibling !== bottom) wrap.after(bottom);
}

/** The players' names in their bars. */
export function nameBars(names) {
  if (!names) return;
  const words = { You: t("you"), White: t("white"), Black: t("black") };
  document.getElementById("name-white").textContent = words[names[0]] || names[0];
  document.getElementById("name-black").textContent = words[names[1]] || names[1];
}
