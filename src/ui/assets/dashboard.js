// The dashboard's only script, served by the service (the pages' Content-Security-Policy allows no inline
// script). Everything works without it; it adds the copy buttons and fills the token of a one-time link or an invitation.
"use strict";

document.addEventListener("click", (event) => {
  const button = event.target instanceof Element ? event.target.closest("[data-copy]") : null;
  if (!button) return;
  const source = document.getElementById(button.getAttribute("data-copy"));
  const status = button.parentElement && button.parentElement.querySelector(".copied");
  if (!source || !navigator.clipboard) return;
  navigator.clipboard.writeText(source.textContent || "").then(
    () => {
      if (status) status.textContent = "Copied";
    },
    () => {
      if (status) status.textContent = "Copy failed: select the key and copy it by hand";
    },
  );
});

document.addEventListener("DOMContentLoaded", () => {
  // A one-time link (/dashboard/sign-in#token=dlink_…) or an invitation (/dashboard/invitations/accept#token=dinv_…).
  // The token leaves the address bar at once; focus goes to the form's first empty field, or its button.
  const match = /^#token=([\w-]+)$/.exec(window.location.hash);
  const field = document.getElementById("token");
  if (match && field) {
    field.value = match[1];
    history.replaceState(null, "", window.location.pathname);
    const inputs = field.form ? Array.from(field.form.querySelectorAll("input:not([type=hidden])")) : [];
    const next = inputs.find((input) => !input.value) || (field.form && field.form.querySelector("button"));
    if (next) next.focus();
  }
  // The page that shows a new key's raw value answered a form post: take that post out of the history entry,
  // so a reload loads the list (without the value) instead of posting again.
  if (document.getElementById("raw-key") || document.getElementById("invite-link")) history.replaceState(null, "", window.location.pathname);
});
