// The page's WebSocket to /ws: sends `new` (or `resume` when the address holds #g=<id>),
// keeps the game's id in the address for a reload, and reconnects after a drop.

/** The game id in the address's #g=<id>, or null. */
export function gameIdInHash() {
  const m = /(?:^#|&)g=([\w-]+)/.exec(location.hash);
  return m ? m[1] : null;
}

export class Connection {
  /** newMessage: the `new` message to send; handlers: {message(msg), status(text)}. */
  constructor(newMessage, handlers) {
    this.newMessage = newMessage;
    this.handlers = handlers;
    this.resuming = false;
    this.retry = 500;
    this.queue = [];
    this.open();
  }

  open() {
    const scheme = location.protocol === "https:" ? "wss" : "ws";
    this.ws = new WebSocket(`${scheme}://${location.host}/ws`);
    this.handlers.status("connecting");
    this.ws.addEventListener("open", () => {
      this.retry = 500;
      this.handlers.status("open");
      const id = gameIdInHash();
      if (id) {
        this.resuming = true;
        this._send({ t: "resume", id });
      } else {
        this._send(this.newMessage);
      }
      for (const msg of this.queue.splice(0)) this._send(msg);
    });
    this.ws.addEventListener("message", (event) => this._receive(event.data));
    this.ws.addEventListener("close", () => {
      this.handlers.status("closed");
      setTimeout(() => this.open(), this.retry);
      this.retry = Math.min(this.retry * 2, 8000);
    });
  }

  _receive(text) {
    let msg;
    try {
      msg = JSON.parse(text);
    } catch {
      return;
    }
    if (this.resuming && msg.t === "error") {
      // The game this address named is gone: start a fresh one with the same settings.
      this.resuming = false;
      history.replaceState(null, "", location.pathname + location.search);
      this._send(this.newMessage);
      return;
    }
    if (msg.t === "state") {
      this.resuming = false;
      if (gameIdInHash() !== msg.id) {
        history.replaceState(null, "", `${location.pathname}${location.search}#g=${msg.id}`);
      }
    }
    this.handlers.message(msg);
  }

  _send(msg) {
    this.ws.send(JSON.stringify(msg));
  }

  /** Send msg now, or once the socket is open. */
  send(msg) {
    if (this.ws.readyState === WebSocket.OPEN) this._send(msg);
    else this.queue.push(msg);
  }

  /** A new game with the page's settings (the address forgets the old one). */
  newGame() {
    history.replaceState(null, "", location.pathname + location.search);
    this.send(this.newMessage);
  }
}
