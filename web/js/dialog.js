// dialog.js: a modal question with two buttons (an HTML <dialog>): the
// page asks before a step that cannot be taken back, such as resigning.

// Ask text; resolves true when okLabel is pressed, false on cancel or Escape.
export function confirmBox(text, okLabel, cancelLabel) {
  const dlg = document.createElement("dialog");
  dlg.className = "confirm";
  const p = document.createElement("p");
  p.className = "confirm-text";
  p.textContent = text;
  const ok = document.createElement("button");
  ok.type = "button";
  ok.className = "confirm-ok";
  ok.textContent = okLabel;
  const cancel = document.createElement("button");
  cancel.type = "button";
  cancel.className = "confirm-cancel";
  cancel.textContent = cancelLabel;
  const row = document.createElement("div");
  row.className = "confirm-buttons";
  row.append(cancel, ok);
  dlg.append(p, row);
  document.body.append(dlg);
  return new Promise((resolve) => {
    let answer = false;
    ok.addEventListener("click", () => { answer = true; dlg.close(); });
    cancel.addEventListener("click", () => dlg.close());
    dlg.addEventListener("close", () => { dlg.remove(); resolve(answer); });
    dlg.showModal();
    cancel.focus(); // the safe choice is the one Enter takes
  });
}
