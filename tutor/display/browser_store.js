// The learner's progress in their browser: localStorage["wizard-tutor/progress/v1"], a
// JSON array of events (the tutor's Python side writes and checks them; this side only
// keeps them). Plain ESM with no imports, so Voila, JupyterLab and JupyterLite/Voici load
// it as it is (anywidget). Everything happens once per model (initialize), not per view:
// an answer is appended once however often the widget is shown.
//
// Python -> here:  {op: "append", event}   add one event (at once, then under a lock: two
//                                            tabs both count)
//                  {op: "replace", backup}  keep the current value under `backup`, then
//                                            start an empty list (start afresh)
// here -> Python:  the `stored` trait: the value as it is now (after a load, a write, or
//                  another tab's write); `blocked`: storage cannot be used at all;
//                  {op: "failed", id, reason} when an event could not be kept.

function withLock(name, work) {
  // navigator.locks serialises read-modify-write across this browser's tabs.
  if (globalThis.navigator && navigator.locks && navigator.locks.request) {
    return navigator.locks.request(name, async () => work());
  }
  return Promise.resolve().then(work);
}

function storage() {
  try {
    return globalThis.localStorage || null;
  } catch (error) {
    return null; // access itself is refused (e.g. storage switched off)
  }
}

function initialize({ model }) {
  const key = model.get("key");
  // Once the page is being left its kernel connection closes: a sync sent then fails
  // ("Cannot send") and nothing is lost by not sending it (the store is in the browser).
  let leaving = false;
  const onLeave = () => {
    leaving = true;
  };

  function publish() {
    // The page scripts (the app's tutor-page.js, the static site's page.js) mark the page
    // as left at beforeunload, when its kernel's connection closes: a store made after
    // that has no leave event of its own.
    if (leaving || globalThis.wizardTutorPageLeft === true) {
      return;
    }
    const store = storage();
    if (!store) {
      model.set("blocked", true);
    } else {
      try {
        const value = store.getItem(key);
        model.set("stored", value === null ? "[]" : value);
        model.set("blocked", false);
      } catch (error) {
        model.set("blocked", true);
      }
    }
    model.save_changes();
  }

  function append(event) {
    const store = storage();
    if (!store) {
      throw new Error("storage blocked");
    }
    const value = store.getItem(key);
    const list = value === null ? [] : JSON.parse(value);
    if (!Array.isArray(list)) {
      throw new Error("stored progress is not a list");
    }
    if (list.some((kept) => kept && kept.id === event.id)) {
      return; // sent again after a failure: kept once
    }
    list.push(event);
    store.setItem(key, JSON.stringify(list));
  }

  function replace(backup) {
    const store = storage();
    if (!store) {
      throw new Error("storage blocked");
    }
    const value = store.getItem(key);
    if (value !== null && backup) {
      store.setItem(backup, value);
    }
    store.setItem(key, "[]");
  }

  async function onMessage(message) {
    if (!message || typeof message !== "object") {
      return;
    }
    try {
      if (message.op === "append") {
        // Kept at once, in the turn the answer arrives (the kernel sends it before the
        // answer's feedback): a reload as the feedback shows finds it. Then again under the
        // lock, which keeps it once: a write of another tab in between that dropped it.
        append(message.event);
        await withLock(key, () => append(message.event));
      } else if (message.op === "replace") {
        await withLock(key, () => replace(message.backup));
      } else {
        return;
      }
    } catch (error) {
      const id = message.event ? message.event.id : null;
      if (!leaving) {
        model.send({ op: "failed", id, reason: String((error && error.name) || error) });
      }
    }
    publish();
  }

  function onStorage(event) {
    // Another tab of this browser changed the progress (or cleared all storage).
    if (event.key === key || event.key === null) {
      publish();
    }
  }

  model.on("msg:custom", onMessage);
  globalThis.addEventListener("storage", onStorage);
  // beforeunload too: the app gives the page's kernel back then (its page-close request)
  globalThis.addEventListener("beforeunload", onLeave);
  globalThis.addEventListener("pagehide", onLeave);
  publish();
  return () => {
    model.off("msg:custom", onMessage);
    globalThis.removeEventListener("storage", onStorage);
    globalThis.removeEventListener("beforeunload", onLeave);
    globalThis.removeEventListener("pagehide", onLeave);
  };
}

function render() {
  // Nothing to draw: the page shows the progress the Python side computes.
}

export default { initialize, render };
