// A lesson's language in JupyterLab. The app and the static site set <html lang> from the
// page's ?lang= (tutor.js); Lab is one page holding many documents, its <html lang> stays
// Lab's own. So the lesson's output area says its language itself: screen readers read it
// in that language, the browser picks its CJK fonts and line breaks (the widget's CSS,
// :lang(ja) line-break: strict), as tutor.css does for the app. Plain ESM, no imports.

function render({ model, el }) {
  // The cell's output area: every output of the page's one cell (links, title, lesson,
  // quiz), not this hidden widget alone.
  const area = el.closest(".jp-OutputArea");
  function showLanguage() {
    const lang = model.get("lang");
    if (area && lang) {
      area.lang = lang;
    }
  }
  model.on("change:lang", showLanguage);
  showLanguage();
  return () => model.off("change:lang", showLanguage);
}

export default { render };
