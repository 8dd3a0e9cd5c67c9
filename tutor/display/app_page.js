// The app page's tab title, in the learner's language: Voila titles a page with its file
// name, and only the kernel knows the page's language. Plain ESM, no imports (anywidget);
// shown only in the app, never in JupyterLab, which keeps its own tab titles.

function initialize({ model }) {
  function showTitle() {
    const title = model.get("title");
    if (title) {
      document.title = title;
    }
  }

  model.on("change:title", showTitle);
  showTitle();
  return () => model.off("change:title", showTitle);
}

function render() {
  // Nothing to draw.
}

export default { initialize, render };
