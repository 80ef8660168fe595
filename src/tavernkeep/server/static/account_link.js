// The lobby header's way to the account page: "Sign in" for a person signed out (an
// account is optional), the account's name for one signed in. Its own module, so the
// lobby's script is left as it was: a page without it still plays.

import { api } from "./dom.js";

async function showAccount() {
  const link = document.getElementById("account-link");
  if (!link) return;
  try {
    const { account } = await api("/api/account");
    if (account) {
      link.textContent = account.name;
      link.title = "Your account: your tables on every device you sign in on";
      link.classList.add("signed-in");
    }
  } catch {
    // The server cannot be reached: the lobby says so itself; the link stays "Sign in".
  }
}

showAccount();
