// Progressive enhancement of the admin screen: a "Copy" button beside each read-only field
// marked data-copy. Without this script the field is still there to select and copy by hand.
// The button's words after a click come from the page (data-copied, data-copy-by-hand), in its
// language.
'use strict';
document.querySelectorAll('button[data-copy]').forEach((button) => {
  const field = document.getElementById(button.dataset.copy);
  if (!field) return;
  const label = button.textContent;
  button.hidden = false;
  button.addEventListener('click', async () => {
    field.focus();
    field.select();
    let copied = false;
    try {
      await navigator.clipboard.writeText(field.value);
      copied = true;
    } catch {
      copied = document.execCommand('copy');
    }
    button.textContent = copied ? button.dataset.copied : button.dataset.copyByHand;
    setTimeout(() => {
      button.textContent = label;
    }, 2000);
  });
});
