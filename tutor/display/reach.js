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

function render({ model, el }) {
  el.classList.add("tutor-reach");
  const words = document.createElement("div");
  const html = model.get("html");
  words.innerHTML = typeof html === "string" ? html : "";
  el.appendChild(words);
  if (model.get("reached")) {
    return undefined;
  }
  function reach() {
    if (!model.get("reached")) {
      model.set("reached", true);
      model.save_changes();
    }
  }
  if (!("IntersectionObserver" in window)) {
    reach();
    return undefined;
  }
  let observer = null;
  // Wait a frame: the element is placed in the page after render returns.
  const start = window.requestAnimationFrame(() => {
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
  });
  return () => {
    window.cancelAnimationFrame(start);
    if (observer) {
      observer.disconnect();
    }
  };
}

export default { render };
