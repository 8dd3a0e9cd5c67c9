// What a presenter's screen shows right now, measured from outside the page's own script
// (tests/browser/test_present.py): everything the room can see on the stage above the bar,
// how many words and pictures it shows (none: a blank slide), whether any of it runs off
// the screen or scrolls, the smallest text, the smallest card,
// how much of the stage the slide fills, the question and answer of a predict-then-reveal
// slide, and where the bar's controls are.
() => {
  const scale = Math.min(innerWidth / 1280, innerHeight / 720);
  const stage = document.getElementById("rendered_cells");
  const stageBox = stage.getBoundingClientRect();
  const bar = document.querySelector(".tutor-present-bar");
  const deck = stage.firstElementChild;

  // Seen by the room: laid out, not hidden, not clipped to nothing (screen-reader-only
  // words are drawn 1 px small on purpose). Remembered per element: a slide has thousands.
  const unhidden = new Map();
  const notHidden = (node) => {
    if (!node || node === stage) {
      return true;
    }
    if (!unhidden.has(node)) {
      const style = getComputedStyle(node);
      const hidden =
        style.display === "none" ||
        style.visibility === "hidden" ||
        style.opacity === "0" ||
        (style.clip && style.clip !== "auto");
      unhidden.set(node, !hidden && notHidden(node.parentElement));
    }
    return unhidden.get(node);
  };
  const seen = (element) => {
    if (!notHidden(element)) {
      return false;
    }
    const box = element.getBoundingClientRect();
    return box.width > 1 && box.height > 1;
  };
  // Everything displayed on the stage (the other slides are in the page too, not displayed:
  // their subtrees are skipped whole).
  const elements = [];
  const texts = [];
  const walker = document.createTreeWalker(
    stage,
    NodeFilter.SHOW_ELEMENT | NodeFilter.SHOW_TEXT,
    (node) =>
      node.nodeType === Node.ELEMENT_NODE && getComputedStyle(node).display === "none"
        ? NodeFilter.FILTER_REJECT
        : NodeFilter.FILTER_ACCEPT
  );
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    (node.nodeType === Node.TEXT_NODE ? texts : elements).push(node);
  }
  const outside = (box) =>
    box.left < stageBox.left - 1 ||
    box.right > stageBox.right + 1 ||
    box.top < stageBox.top - 1 ||
    box.bottom > Math.min(stageBox.bottom, bar.getBoundingClientRect().top) + 1;

  const result = {
    position: bar.querySelector(".tutor-present-position").textContent.trim(),
    holding: document.body.classList.contains("tutor-holding"),
    zoom: deck.currentCSSZoom,
    maxZoom: 2.5 * scale,
    scale,
    smallestText: Infinity,
    smallestTextWords: "",
    smallestCard: Infinity,
    shown: 0,
    outside: [],
    scrolling: [],
    fillWidth: 0,
    fillHeight: 0,
    asks: [],
    answers: [],
    answersSeen: 0,
    beforeSeen: 0,
    controls: {},
  };
  let left = Infinity;
  let top = Infinity;
  let right = -Infinity;
  let bottom = -Infinity;
  const cover = (box) => {
    left = Math.min(left, box.left);
    top = Math.min(top, box.top);
    right = Math.max(right, box.right);
    bottom = Math.max(bottom, box.bottom);
  };

  // Every piece of text: its size on the screen (a card's own letters are judged by the
  // card's size below), its place.
  for (const node of texts) {
    const element = node.parentElement;
    if (!node.textContent.trim() || !element || element.closest("style, script, title")) {
      continue;
    }
    if (!seen(element)) {
      continue;
    }
    const range = document.createRange();
    range.selectNodeContents(node);
    const boxes = Array.from(range.getClientRects()).filter((b) => b.width > 1 && b.height > 1);
    if (!boxes.length) {
      continue;
    }
    boxes.forEach(cover);
    result.shown += 1;
    if (boxes.some(outside)) {
      result.outside.push(node.textContent.trim().slice(0, 60));
    }
    if (element.closest(".card")) {
      continue;
    }
    let size;
    if (element instanceof SVGElement) {
      const matrix = element.getScreenCTM();
      size = parseFloat(getComputedStyle(element).fontSize) * Math.hypot(matrix.a, matrix.b);
    } else {
      size = parseFloat(getComputedStyle(element).fontSize) * element.currentCSSZoom;
    }
    if (size < result.smallestText) {
      result.smallestText = size;
      result.smallestTextWords = node.textContent.trim().slice(0, 60);
    }
  }

  // Pictures and controls: on the stage; every element: nothing scrolls.
  elements.forEach((element) => {
    if (element.closest("svg") && element.tagName.toLowerCase() !== "svg") {
      return;
    }
    if (!seen(element)) {
      return;
    }
    if (/^(svg|img|button|input|select|textarea)$/i.test(element.tagName)) {
      const box = element.getBoundingClientRect();
      cover(box);
      result.shown += 1;
      if (outside(box)) {
        result.outside.push(`<${element.tagName.toLowerCase()}> ${element.textContent.trim().slice(0, 40)}`);
      }
    }
    const style = getComputedStyle(element);
    const scrolls = /(auto|scroll)/.test(style.overflowX + style.overflowY);
    if (
      scrolls &&
      (element.scrollHeight > element.clientHeight + 1 || element.scrollWidth > element.clientWidth + 1)
    ) {
      result.scrolling.push(`${element.tagName.toLowerCase()}.${element.className}`);
    }
  });
  const page = document.scrollingElement;
  if (page.scrollHeight > innerHeight + 1 || page.scrollWidth > innerWidth + 1) {
    result.scrolling.push("the page");
  }
  if (stage.scrollHeight > stage.clientHeight + 1 || stage.scrollWidth > stage.clientWidth + 1) {
    result.scrolling.push("the stage");
  }

  elements.forEach((face) => {
    if (face.matches(".card .card-face") && seen(face)) {
      result.smallestCard = Math.min(result.smallestCard, face.getBoundingClientRect().height);
    }
  });
  // Predict, then reveal: the question asked, the answer (seen or held back).
  elements.forEach((element) => {
    if (element.matches(".tutor-ask") && seen(element)) {
      result.asks.push(element.innerText.trim());
    } else if (element.matches(".tutor-answer")) {
      result.answers.push(element.textContent.replace(/\s+/g, ""));
      result.answersSeen += seen(element) ? 1 : 0;
      cover(element.getBoundingClientRect()); // held back, its place is kept on the slide
    } else if (element.matches(".tutor-unanswered")) {
      result.beforeSeen += seen(element) ? 1 : 0;
    }
  });

  result.fillWidth = (right - left) / stageBox.width;
  result.fillHeight = (bottom - top) / stageBox.height;

  bar.querySelectorAll("button").forEach((button) => {
    const box = button.getBoundingClientRect();
    result.controls[button.className.split(" ")[0]] = [box.left, box.top, box.width, box.height];
  });
  const barBox = bar.getBoundingClientRect();
  result.controls.bar = [barBox.left, barBox.top, barBox.width, barBox.height];
  result.barText = parseFloat(getComputedStyle(bar.querySelector(".tutor-present-position")).fontSize);
  return result;
};
