// Keep the screen awake while a game runs, where the browser offers navigator.wakeLock.

let lock = null;
let wanted = false;

async function acquire() {
  if (!wanted || lock || !("wakeLock" in navigator) || document.visibilityState !== "visible") {
    return;
  }
  try {
    lock = await navigator.wakeLock.request("screen");
    lock.addEventListener("release", () => { lock = null; });
  } catch {
    lock = null;            // refused (battery saver, no permission): the page plays on
  }
}

/** running: whether a game is going on now. */
export function keepAwake(running) {
  wanted = running;
  if (running) acquire();
  else if (lock) {
    lock.release().catch(() => {});
    lock = null;
  }
}

document.addEventListener("visibilitychange", acquire);
