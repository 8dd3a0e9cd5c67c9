// A lesson's language in JupyterLab. The app and the static site set <html lang> from the
// page's ?lang= (tutor-settings.js); Lab is one page holding many documents, its <html lang> stays
// Lab's own. So the lesson's output area says its language itself: screen readers read it
// in that language, the browser picks its CJK fonts and line breaks (the widget's CSS,
// :lang(ja) line-break: strict), as tutor.css does for the app. Plain ESM, no imports.

function render({ model, el }) {
  // The cell's output area: every output of the page's one cell (links, title, lesson,
  // quiz), not this hidden widget alone.
  let area = null;
  let frame = 0;
  function showLanguage() {
    area = area || el.closest(".jp-OutputArea");
    const lang = model.get("lang");
    if (area && lang) {
      area.lang = lang;
    }
  }
  // The widget manager may put the view's element into the output area only after render()
  // returns, and how soon varies (in CI it came later once the widget changed its layout
  // as it was made): until the element is in the page, look again at the next frame.
  function untilPlaced() {
    showLanguage();
    frame = area || el.isConnected ? 0 : requestAnimationFrame(untilPlaced);
  }
  model.on("change:lang", showLanguage);
  untilPlaced();
  return () => {
    model.off("change:lang", showLanguage);
    cancelAnimationFrame(frame);
  };
}

export default { render };
