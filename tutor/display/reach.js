// A light stand-in for a widget not built yet (tutor/display/reach.py). Plain ESM with no
// imports, so Voila, JupyterLab and JupyterLite/Voici load it as it is (anywidget).
//
// It shows the words it was given (a question's title, note and prompt) and tells the
// kernel, by setting `reached`, once it comes into view (or a quarter of a screen below
// it): the kernel then puts the real widget in its place. A presenter's hidden slide is
// never in view, so it is built when it is shown. Without IntersectionObserver it asks
// at once (the page then costs what it did before, and still works).

// The element that scrolls `el` (JupyterLab scrolls a panel, Voila the document): the
// observer's margin reaches ahead only inside the scrolling element it watches.
function scroller(el) {
  for (let node = el.parentElement; node && node !== document.body; node = node.parentElement) {
    const overflow = window.getComputedStyle(node).overflowY;
    if ((overflow === "auto" || overflow === "scroll") && node.scrollHeight > node.clientHeight) {
      return node;
    }
  }
  return null;
}

// Focus on the stand-in (a keyboard learner's Tab) moves to the first control of the widget
// that takes its place, once it is drawn there, unless the learner has gone elsewhere.
function handFocusOn(el) {
  const place = el.parentElement;
  if (!place) {
    return;
  }
  const observer = new MutationObserver(() => {
    const target = place.querySelector("button:not(:disabled), input:not(:disabled)");
    if (!target) {
      return;
    }
    observer.disconnect();
    const now = document.activeElement;
    if (!now || now === document.body || now === el || !now.isConnected) {
      target.focus();
    }
  });
  observer.observe(place, { childList: true, subtree: true });
  window.setTimeout(() => observer.disconnect(), 60000);
}

function render({ model, el }) {
  el.classList.add("tutor-reach");
  // Reachable by Tab too: a keyboard learner meets the question where it will be.
  el.tabIndex = 0;
  el.addEventListener("focus", () => {
    handFocusOn(el);
    reach();
  });
  const words = document.createElement("div");
  const html = model.get("html");
  words.innerHTML = typeof html === "string" ? html : "";
  el.appendChild(words);
  function reach() {
    if (!model.get("reached")) {
      model.set("reached", true);
      model.save_changes();
    }
  }
  if (model.get("reached")) {
    return undefined;
  }
  if (!("IntersectionObserver" in window)) {
    reach();
    return undefined;
  }
  let observer = null;
  // The widget manager puts the element into the page after render returns, at the next
  // frame or later (JupyterLab varies): the scrolling element, and so the observer's
  // look-ahead, is known only once it is there. Until then, look again at each frame.
  let frame = 0;
  function observeOncePlaced() {
    if (!el.isConnected) {
      frame = window.requestAnimationFrame(observeOncePlaced);
      return;
    }
    frame = 0;
    observer = new IntersectionObserver(
      (entries) => {
        if (entries.some((entry) => entry.isIntersecting)) {
          observer.disconnect();
          reach();
        }
      },
      // A little ahead of the learner, downwards only: a question is built as it comes
      // into view, not a whole screen before (each costs the kernel and the browser).
      { root: scroller(el), rootMargin: "0px 0px 25% 0px" }
    );
    observer.observe(el);
  }
  frame = window.requestAnimationFrame(observeOncePlaced);
  return () => {
    window.cancelAnimationFrame(frame);
    if (observer) {
      observer.disconnect();
    }
  };
}

export default { render };
