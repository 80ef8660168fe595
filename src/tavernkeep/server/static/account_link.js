// The lobby header's way to the account page: "Sign in" for a person signed out (an
// account is optional), the account's name for one signed in; asked again when this
// browser signs in or out in another tab (the account page says so in localStorage). Its
// own module, so the lobby's script is left as it was: a page without it still plays.

import { api } from "./dom.js";

const ACCOUNT_KEY = "tavernkeep:account"; // written by account.js as this browser signs in or out
const SIGNED_OUT = { text: "Sign in", title: "Optional: your seats on every device, with a passkey" };

async function showAccount() {
  const link = document.getElementById("account-link");
  if (!link) return;
  try {
    const { account } = await api("/api/account");
    link.textContent = account ? account.name : SIGNED_OUT.text;
    link.title = account ? "Your account: your tables on every device you sign in on" : SIGNED_OUT.title;
    link.classList.toggle("signed-in", Boolean(account));
    // Your tables (lobby/your_tables.js) lists the account's tables too: said both ways,
    // as that module may start before or after this answer comes.
    document.documentElement.dataset.account = account ? "signed-in" : "signed-out";
    document.dispatchEvent(new CustomEvent("tavernkeep:account", { detail: { signedIn: Boolean(account) } }));
  } catch {
    // The server cannot be reached: the lobby says so itself; the link stays as it was.
  }
}

window.addEventListener("storage", (event) => {
  if (event.key === ACCOUNT_KEY) showAccount();
});
showAccount();
