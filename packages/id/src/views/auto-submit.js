// The account center's pages run no other script. This one submits a form at once by clicking its
// [data-auto-submit] button (a relying party's own sign-out: RP-Initiated Logout 1.0 §2, no extra question).
// Without JavaScript the button stays on the page for the person to press.
document.addEventListener('DOMContentLoaded', () => {
  const button = document.querySelector('[data-auto-submit]');
  if (button instanceof HTMLButtonElement) button.click();
});
