// The seats' clocks on the table page: each running clock (drawn by the seats panel,
// seats.js, with the time left when the seats came) counted down between the server's
// messages, and drawn as urgent when little time is left.

import { app } from "./state.js";

// A running clock under this many seconds is drawn as urgent.
const CLOCK_LOW_S = 30;

/** Count the running clocks down from the last seats the server sent; it sends them again
 *  at every decision, so the page never drifts far. */
export function tickClocks() {
  const since = (performance.now() - app.seatsAt) / 1000;
  let running = false;
  for (const node of document.querySelectorAll("#seats .seat-clock")) {
    const left = Number(node.dataset.left) - (node.dataset.running ? since : 0);
    node.textContent = `${clockText(left)} left`;
    node.classList.toggle("running", Boolean(node.dataset.running));
    node.classList.toggle("low", Boolean(node.dataset.running) && left < CLOCK_LOW_S);
    running = running || Boolean(node.dataset.running);
  }
  clearTimeout(app.clockTimer);
  if (running) app.clockTimer = setTimeout(tickClocks, 250);
}

/** Seconds as a clock reads: "2:05", "1:02:05", "3 d 4 h". */
function clockText(seconds) {
  const s = Math.max(0, Math.ceil(seconds));
  const pad = (n) => String(n).padStart(2, "0");
  if (s >= 86400) return `${Math.floor(s / 86400)} d ${Math.floor((s % 86400) / 3600)} h`;
  if (s >= 3600) return `${Math.floor(s / 3600)}:${pad(Math.floor((s % 3600) / 60))}:${pad(s % 60)}`;
  return `${Math.floor(s / 60)}:${pad(s % 60)}`;
}
