// Telling a person it is their turn while they look at another tab: the browser's
// notification, if they allowed it. Permission is asked only when they click for it (the
// lobby's "Tell me when it's my turn", `askToNotify`), never as a page loads. The lobby
// (lobby/your_tables.js) tells of every table this browser sits at; a table page
// (table/turn_alert.js) of its own.

/** Whether this browser can show notifications at all. */
export function canNotify() {
  return typeof window.Notification === "function";
}

/** "granted", "denied", "default" (not asked yet) or "unsupported". */
export function notifyPermission() {
  return canNotify() ? Notification.permission : "unsupported";
}

/** Ask the person, on their click; what they answered. */
export async function askToNotify() {
  if (!canNotify()) return "unsupported";
  try {
    return await Notification.requestPermission();
  } catch {
    return Notification.permission;
  }
}

/**
 * Say it is their turn, if they allowed notifications. One a table (`tag`): a second
 * replaces the first. A click brings this page back and goes to `url`, if given.
 */
export function notifyTurn({ title, body, tag, url = null }) {
  if (notifyPermission() !== "granted") return null;
  try {
    const note = new Notification(title, { body, tag });
    note.onclick = () => {
      window.focus();
      note.close();
      if (url) location.assign(url);
    };
    return note;
  } catch {
    // Chrome on Android shows notifications only through a service worker: the title
    // still says it.
    return null;
  }
}
