// What a page of the app needs from the browser that a notebook output cannot do: its tab
// title in the learner's language (Voila titles a page with its file name), and links
// between the course's pages that stay in the same tab (Voila's HTML outputs open links
// in a new one). Plain ESM, no imports (anywidget); shown only in the app, never in Lab.

const COURSE_LINKS = "a.tutor-nav-link";

function initialize({ model }) {
  function showTitle() {
    const title = model.get("title");
    if (title) {
      document.title = title;
    }
  }

  function sameTab(event) {
    const link = event.target && event.target.closest && event.target.closest(COURSE_LINKS);
    if (link) {
      link.removeAttribute("target");
    }
  }

  model.on("change:title", showTitle);
  document.addEventListener("click", sameTab, true);
  showTitle();
  return () => {
    model.off("change:title", showTitle);
    document.removeEventListener("click", sameTab, true);
  };
}

function render() {
  // Nothing to draw.
}

export default { initialize, render };
