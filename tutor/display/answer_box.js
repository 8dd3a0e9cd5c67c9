// A quiz's number box and its Check button (tutor/display/answer_box.py). Plain ESM with no
// imports, so Voila, JupyterLab and JupyterLite/Voici load it as it is (anywidget).
//
// What the learner typed travels WITH the submit: {event: "submit", value, via} when Enter
// is pressed in the box or Check is clicked. A text box synced key by key would not do:
// the widget manager holds back a state update while an earlier one is unanswered, but
// sends a click at once, so the kernel could grade the box's previous value.
//
// Python -> here: the traits `value` (what the box shows: the last answer, "" for a fresh
// try), `description` (the box's label), `tooltip`, `check_label`, `check_tooltip`,
// `disabled`; the message {op: "focus"}. A trait the Python side never set may arrive
// as undefined (the static site's kernel): every read has a fallback.

let boxes = 0; // ids for label-for, unique on the page

function words(model, name) {
  const value = model.get(name);
  return typeof value === "string" ? value : "";
}

function render({ model, el }) {
  boxes += 1;
  const id = `tutor-answer-box-${boxes}`;
  el.classList.add("widget-inline-hbox", "widget-text");

  const label = document.createElement("label");
  label.className = "widget-label tutor-answer-label";
  label.htmlFor = id;
  const input = document.createElement("input");
  input.type = "text";
  input.id = id;
  input.className = "widget-input";
  // No inputmode="numeric": a phone's digit pad may lack the minus sign a score needs.
  input.autocomplete = "off";
  input.spellcheck = false;
  const check = document.createElement("button");
  check.type = "button";
  check.className = "jupyter-widgets jupyter-button widget-button mod-primary tutor-quiz-check";

  function showValue() {
    input.value = words(model, "value");
  }

  function show() {
    const description = words(model, "description");
    label.textContent = description;
    label.style.display = description ? "" : "none";
    input.title = words(model, "tooltip");
    check.textContent = words(model, "check_label");
    check.title = words(model, "check_tooltip");
    const disabled = model.get("disabled") === true;
    input.disabled = disabled;
    check.disabled = disabled;
  }

  function submit(via) {
    if (model.get("disabled") === true) {
      return;
    }
    model.send({ event: "submit", value: input.value, via });
  }

  input.addEventListener("keydown", (event) => {
    // Enter that ends an input method's composition (Japanese, Chinese) only confirms
    // the characters: it submits nothing.
    if (event.key === "Enter" && !event.isComposing && event.keyCode !== 229) {
      event.preventDefault();
      submit("enter");
    }
  });
  check.addEventListener("click", () => submit("check"));

  function onMessage(message) {
    if (message && message.op === "focus") {
      input.focus();
    }
  }

  const names = ["description", "tooltip", "check_label", "check_tooltip", "disabled"];
  for (const name of names) {
    model.on(`change:${name}`, show);
  }
  model.on("change:value", showValue);
  model.on("msg:custom", onMessage);
  el.append(label, input, check);
  show();
  showValue();
  return () => {
    for (const name of names) {
      model.off(`change:${name}`, show);
    }
    model.off("change:value", showValue);
    model.off("msg:custom", onMessage);
  };
}

export default { render };
