// The course index opens lessons in the same tab (JupyterLab's HTML renderer gives every
// link target=_blank; a class follows one tab, and Back returns to the index).
(function () {
  "use strict";

  document.addEventListener(
    "click",
    (event) => {
      const link = event.target && event.target.closest && event.target.closest("a");
      if (link && link.closest(".tutor-course-index")) {
        link.removeAttribute("target");
      }
    },
    true,
  );
})();
