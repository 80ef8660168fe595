// The account page: optional sign-in with a passkey. Signed out, it creates an account
// (a name and a passkey) or signs in with a passkey; signed in, it lists the account's
// tables (each opened on this device with a credential of its own, taken without an
// invite), its name, its passkeys, and downloads or deletes its data. See
// server/PROTOCOL.md, "Accounts".
//
// The browser's WebAuthn calls take and give ArrayBuffers; the server speaks base64url
// JSON (py_webauthn's): the few helpers below turn one into the other, by hand rather
// than with PublicKeyCredential's JSON helpers, which older browsers lack.

import { api, h, playerName, rememberName, rememberSeat, replace, storedName, storedSeats } from "./dom.js";

const $ = (id) => document.getElementById(id);
const LIVE = ["playing", "waiting"];

let busy = false; // a ceremony or request under way: a second click must not start another

// -- WebAuthn's JSON, both ways ---------------------------------------------------------------

function fromB64url(text) {
  const base64 = String(text).replace(/-/g, "+").replace(/_/g, "/");
  const binary = atob(base64 + "=".repeat((4 - (base64.length % 4)) % 4));
  return Uint8Array.from(binary, (c) => c.charCodeAt(0)).buffer;
}

function toB64url(buffer) {
  let binary = "";
  for (const byte of new Uint8Array(buffer)) binary += String.fromCharCode(byte);
  return btoa(binary).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
}

const descriptors = (list) => (list || []).map((c) => ({ ...c, id: fromB64url(c.id) }));

function creationOptions(json) {
  return {
    ...json,
    challenge: fromB64url(json.challenge),
    user: { ...json.user, id: fromB64url(json.user.id) },
    excludeCredentials: descriptors(json.excludeCredentials),
  };
}

function requestOptions(json) {
  return { ...json, challenge: fromB64url(json.challenge), allowCredentials: descriptors(json.allowCredentials) };
}

/** A credential the browser made or used, as the JSON the server checks. */
function credentialJSON(credential) {
  const r = credential.response;
  const response = { clientDataJSON: toB64url(r.clientDataJSON) };
  if (r.attestationObject) {
    response.attestationObject = toB64url(r.attestationObject);
    if (typeof r.getTransports === "function") response.transports = r.getTransports();
  } else {
    response.authenticatorData = toB64url(r.authenticatorData);
    response.signature = toB64url(r.signature);
    if (r.userHandle) response.userHandle = toB64url(r.userHandle);
  }
  return {
    id: credential.id,
    rawId: toB64url(credential.rawId),
    type: credential.type,
    response,
    clientExtensionResults: credential.getClientExtensionResults ? credential.getClientExtensionResults() : {},
  };
}

/** A person's words for why the browser's passkey dialog gave nothing back. */
function refusal(error) {
  const name = error && error.name;
  if (name === "NotAllowedError") return "no passkey was used (the dialog was closed, or took too long)";
  if (name === "InvalidStateError") return "this device holds a passkey of this account already";
  if (name === "SecurityError") return "this browser will not use passkeys for this address";
  return `the passkey did not answer (${(error && error.message) || error})`;
}

/** Ask the server to begin, the browser's passkey to answer, and the server to check it. */
async function ceremony(begin, body, finish, make) {
  const { options } = await api(begin, { json: body });
  let credential;
  try {
    credential = make
      ? await navigator.credentials.create({ publicKey: creationOptions(options) })
      : await navigator.credentials.get({ publicKey: requestOptions(options) });
  } catch (error) {
    throw new Error(refusal(error));
  }
  return api(finish, { json: { credential: credentialJSON(credential) } });
}

// -- the page -------------------------------------------------------------------------------

function showError(text) {
  const node = $("account-error");
  node.textContent = text ? `${text[0].toUpperCase()}${text.slice(1)}.`.replace(/\.\.$/, ".") : "";
  node.hidden = !text;
}

function note(text) {
  $("account-note").textContent = text || "";
  $("account-note").hidden = !text;
}

/** Run `work` with the page's buttons held, showing its failure as a one-line error. */
async function act(work) {
  if (busy) return;
  busy = true;
  showError("");
  for (const button of document.querySelectorAll("main button")) button.disabled = true;
  try {
    await work();
  } catch (error) {
    showError(error.message || String(error));
  } finally {
    busy = false;
    for (const button of document.querySelectorAll("main button")) button.disabled = false;
    markLastPasskey();
  }
}

/** Passkeys sign in by this page's address; an IP address has none (WebAuthn's rule). */
function passkeysHere() {
  if (!window.PublicKeyCredential || !navigator.credentials) {
    return "This browser has no passkeys: sign in from another, or play without an account.";
  }
  const host = location.hostname;
  if (/^[\d.]+$/.test(host) || host.includes(":") || host.startsWith("[")) {
    const local = host === "127.0.0.1" || host === "[::1]" || host === "::1";
    const address = `${location.protocol}//localhost${location.port ? `:${location.port}` : ""}/account`;
    return local
      ? `Passkeys need the server's name, not an IP address: open ${address} to sign in.`
      : "Passkeys need the server's name, not an IP address: open it by its domain name to sign in.";
  }
  return "";
}

// Told to the lobby in this browser's other tabs (lobby/your_tables.js), whose socket
// then lists the account's tables, or no longer does: {signed_in, at}.
const ACCOUNT_KEY = "tavernkeep:account";

function tellOtherTabs(signedIn) {
  try {
    localStorage.setItem(ACCOUNT_KEY, JSON.stringify({ signed_in: signedIn, at: Date.now() }));
  } catch {
    // storage disabled: another tab's lobby finds out when it is reloaded
  }
}

async function load() {
  const { account } = await api("/api/account");
  $("signed-out").hidden = account !== null;
  $("signed-in").hidden = account === null;
  if (account === null) {
    $("account-title").textContent = "Your account";
    return;
  }
  $("account-title").textContent = `Signed in as ${account.name}`;
  if (account.handle) {
    $("public-page").href = `/people/${encodeURIComponent(account.handle)}`;
    $("public-page-note").hidden = false;
  }
  if (document.activeElement !== $("account-name")) $("account-name").value = account.name;
  // The tables call a person by the lobby's name: an account's, unless they chose one.
  if (!storedName()) rememberName(account.name);
  renderTables(account.tables);
  renderPasskeys(account.passkeys);
}

// -- the account's tables -------------------------------------------------------------------

function renderTables(tables) {
  if (!tables.length) {
    replace(
      $("account-tables"),
      h("li", { class: "muted", text: "No tables yet: a seat you take while signed in shows here." }),
    );
    return;
  }
  replace($("account-tables"), tables.map(tableItem));
}

const STATUS = {
  playing: "being played",
  waiting: "waiting for players",
  finished: "finished",
  closed: "closed by its host",
  archived: "archived",
};

function tableItem(entry) {
  const seat = entry.name ? `${playerName(entry.seat)} (${entry.name})` : playerName(entry.seat);
  const live = LIVE.includes(entry.status);
  return h(
    "li",
    { class: "table-item" },
    h(
      "div",
      { class: "table-item-head" },
      h("strong", { text: entry.title }),
      h("code", { class: "muted", text: entry.table }),
      h("span", { class: "muted", text: `${seat} · ${STATUS[entry.status] || entry.status} · ${ago(entry.updated_at)}` }),
    ),
    h(
      "div",
      { class: "table-item-links" },
      h("button", {
        type: "button",
        class: `button ${live ? "primary" : "secondary"}`,
        text: live ? `Play as ${playerName(entry.seat)}` : "Open",
        onclick: () => act(() => openSeat(entry)),
      }),
    ),
  );
}

/** Open the account's seat here: with this browser's own credential if it holds one (the
 *  device that claimed it), else with one taken for this sign-in. */
async function openSeat(entry) {
  const path = `/table/${encodeURIComponent(entry.table)}#seat=${entry.seat}`;
  if (!storedSeats(entry.table).credentials[String(entry.seat)]) {
    const taken = await api(`/api/tables/${encodeURIComponent(entry.table)}/seats/${entry.seat}/take`, { json: {} });
    rememberSeat(entry.table, entry.seat, taken.token, { last: true });
  }
  location.href = path;
}

/** "just now", "5 min ago", "2 h ago" from a Unix time in seconds. */
function ago(seconds) {
  const age = Date.now() / 1000 - Number(seconds);
  if (!Number.isFinite(age) || age < 60) return "just now";
  if (age < 3600) return `${Math.floor(age / 60)} min ago`;
  if (age < 86400) return `${Math.floor(age / 3600)} h ago`;
  return `${Math.floor(age / 86400)} d ago`;
}

// -- passkeys ---------------------------------------------------------------------------------

function day(seconds) {
  return new Date(Number(seconds) * 1000).toLocaleDateString(undefined, { dateStyle: "medium" });
}

function renderPasskeys(passkeys) {
  replace(
    $("passkeys"),
    passkeys.map((passkey) =>
      h(
        "li",
        { class: "passkey" },
        h("span", { class: "passkey-label", text: passkey.label }),
        h("span", {
          class: "muted",
          text: `added ${day(passkey.created_at)}${passkey.used_at ? ` · last used ${day(passkey.used_at)}` : ""}`,
        }),
        h("button", {
          type: "button",
          class: "button secondary remove-passkey",
          text: "Remove",
          "aria-label": `Remove the passkey ${passkey.label}, added ${day(passkey.created_at)}`,
          onclick: () =>
            act(async () => {
              await api(`/api/account/passkeys/${encodeURIComponent(passkey.id)}`, { method: "DELETE" });
              await load();
            }),
        }),
      ),
    ),
  );
  markLastPasskey();
}

/** The last passkey is not removed: nobody could sign in to the account again. */
function markLastPasskey() {
  const buttons = document.querySelectorAll("#passkeys .remove-passkey");
  if (buttons.length === 1) {
    buttons[0].disabled = true;
    buttons[0].title = "An account keeps at least one passkey: add another first, or delete the account.";
  }
}

// -- start ------------------------------------------------------------------------------------

function start() {
  const here = passkeysHere();
  note(here);
  $("sign-in").addEventListener("click", () =>
    act(async () => {
      await ceremony("/api/account/sign-in", {}, "/api/account/sign-in/finish", false);
      tellOtherTabs(true);
      await load();
    }),
  );
  $("register-form").addEventListener("submit", (event) => {
    event.preventDefault();
    const name = $("register-name").value.trim();
    if (!name) {
      showError("a name first: it is what the tables call you");
      return;
    }
    act(async () => {
      await ceremony("/api/account/register", { name }, "/api/account/register/finish", true);
      tellOtherTabs(true);
      await load();
    });
  });
  $("name-form").addEventListener("submit", (event) => {
    event.preventDefault();
    act(async () => {
      await api("/api/account/name", { json: { name: $("account-name").value } });
      $("account-name").blur();
      await load();
    });
  });
  $("add-passkey").addEventListener("click", () =>
    act(async () => {
      await ceremony("/api/account/passkeys", {}, "/api/account/passkeys/finish", true);
      await load();
    }),
  );
  $("sign-out").addEventListener("click", () =>
    act(async () => {
      await api("/api/account/sign-out", { json: {} });
      tellOtherTabs(false);
      await load();
    }),
  );
  $("delete-account").addEventListener("click", () => {
    $("delete-confirm").hidden = false;
    $("delete-yes").focus();
  });
  $("delete-no").addEventListener("click", () => {
    $("delete-confirm").hidden = true;
  });
  $("delete-yes").addEventListener("click", () =>
    act(async () => {
      await api("/api/account", { method: "DELETE" });
      tellOtherTabs(false);
      $("delete-confirm").hidden = true;
      note("Your account was deleted: its passkeys, sessions and name are gone.");
      await load();
    }),
  );
  act(load);
}

start();
