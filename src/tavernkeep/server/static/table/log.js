// The game log of the table page: what the game did, line by line (with its dice, as the
// tray shows them), and the table's notices this page logged among them; kept scrolled to
// the newest line unless the reader has scrolled up to read history.

import { logLine } from "../dice.js";
import { h } from "../dom.js";
import { $, app, withNames } from "./state.js";

// A seat scrolls back through everything it saw this game (the server sends its whole log):
// a six-seat Here to Slay can run to two thousand lines; this bounds only a runaway page.
const LOG_KEEP = 5000;

export function addLogLine(event) {
  const log = $("log");
  log.append(logLine(event, withNames(event.text || event.kind || "")));
  while (log.childElementCount > LOG_KEEP) log.firstElementChild.remove();
}

/** What the table did (a seat handed out again, a bot standing in, a take-back), in the log.
 *  The page keeps the notices it logged: a table sent again (a seat switched, a decision
 *  taken back) rebuilds the log from the game's events, and puts them back after. */
export function addNoticeLine(text, { keep = true } = {}) {
  if (keep) {
    app.noticesLogged.push(text);
    if (app.noticesLogged.length > LOG_KEEP) app.noticesLogged.shift();
  }
  const log = $("log");
  log.append(h("li", { class: "log-line kind-notice" }, h("span", { class: "log-text", text })));
  while (log.childElementCount > LOG_KEEP) log.firstElementChild.remove();
  scrollLog(false);
}

/** Where scrollLog last put the log: a scroll event that lands there is our own. */
let autoScrollTop = -1;

/** Keep the newest line in sight, unless the reader has scrolled up to read history. */
export function scrollLog(force) {
  const log = $("log");
  if (force || log.dataset.follow !== "no") {
    log.scrollTop = log.scrollHeight;
    autoScrollTop = log.scrollTop;
  }
}

export function watchLogScroll() {
  const log = $("log");
  log.addEventListener("scroll", () => {
    // Scroll events arrive late: by then more lines may have been added below, so our own
    // scroll would look like the reader scrolling up. Only the reader's scrolls decide.
    if (Math.abs(log.scrollTop - autoScrollTop) < 2) return;
    const nearBottom = log.scrollHeight - log.scrollTop - log.clientHeight < 40;
    log.dataset.follow = nearBottom ? "yes" : "no";
  });
}
