/*
 * Navigation between the three languages of the guide.
 *
 * hooks.py loads this file in <head> of every page, before Material's bundle,
 * because of (2): Material creates its search worker while the bundle runs.
 *
 * 1. The language switcher keeps the reader's place: its links (a[hreflang])
 *    get the current ?query (the calculator's scenario) and #section, on load,
 *    on hashchange / popstate, and again just before a switcher link is
 *    followed (the calculator rewrites the query with history.replaceState,
 *    which fires no event). Section ids are the same in every language.
 * 2. Search lists the reader's language first. The index holds the three
 *    languages; each result message of the search worker is reordered
 *    (stable: relevance order is kept within each group) before Material
 *    renders it, and results in another language are marked with its name.
 * 3. The index is loaded when the reader first uses search, not with every
 *    page. The build (hooks.py, kvguide_macros/search_index.py) leaves
 *    search/search_index.json with the configuration only, which Material
 *    fetches on every page, and writes each language's sections to
 *    search/search_index.<lang>.json. The search worker's set-up message
 *    (Material sends it with that empty index) is held here until the search
 *    field gets the focus (a click, a tap on the search icon, a keyboard
 *    shortcut, a ?q= link), then sent with the three languages' sections.
 *    Material sends queries only after the worker answered that set-up, so a
 *    query typed meanwhile runs once the index is in.
 *
 * Languages are told apart by URL: Spanish at the site root, Chinese under
 * zh/, English under en/. The site root is this script's folder's parent, so
 * everything keeps working under any sub-path.
 */
(() => {
  "use strict";

  const LANGUAGE_NAMES = { es: "Español", zh: "中文", en: "English" };
  const SEARCH_RESULT = 3; // Material's SearchMessageType.RESULT

  const script = document.currentScript;
  const siteRoot = new URL("..", script && script.src ? script.src : window.location.href);

  const pageLanguage = () => document.documentElement.getAttribute("lang") || "es";

  /** Language of a path relative to the site root ("zh/faq/", "en/", "faq/"). */
  const languageOfPath = (path) => {
    const clean = path.replace(/^\.?\//, "");
    if (clean === "zh" || clean.startsWith("zh/")) return "zh";
    if (clean === "en" || clean.startsWith("en/")) return "en";
    return "es";
  };

  /** Language of any link on the site. */
  const languageOfUrl = (href) => {
    const url = new URL(href, window.location.href);
    const root = siteRoot.pathname;
    const path = url.pathname.startsWith(root) ? url.pathname.slice(root.length) : url.pathname.replace(/^\//, "");
    return languageOfPath(path);
  };

  // -------------------------------------------------------------------------
  // 1. Language switcher: keep ?query and #section
  // -------------------------------------------------------------------------

  const SWITCHER = "a[hreflang]";

  const rewriteLink = (link) => {
    if (!link.dataset.kvBase) link.dataset.kvBase = link.getAttribute("href") || "";
    const base = link.dataset.kvBase.replace(/[?#].*$/, "");
    link.setAttribute("href", (base || "./") + window.location.search + window.location.hash);
  };

  const rewriteSwitcher = () => document.querySelectorAll(SWITCHER).forEach(rewriteLink);

  document.addEventListener("DOMContentLoaded", rewriteSwitcher);
  window.addEventListener("hashchange", rewriteSwitcher);
  window.addEventListener("popstate", rewriteSwitcher);
  // Just before a switcher link is followed, whatever changed the address since.
  for (const type of ["pointerdown", "focusin", "click"]) {
    document.addEventListener(
      type,
      (event) => {
        const link = event.target instanceof Element ? event.target.closest(SWITCHER) : null;
        if (link) rewriteLink(link);
      },
      true,
    );
  }

  // -------------------------------------------------------------------------
  // 2. Search: the reader's language first, other languages marked
  // -------------------------------------------------------------------------

  const locationOf = (item) => {
    const doc = Array.isArray(item) ? item[0] : item;
    return doc && typeof doc.location === "string" ? doc.location : null;
  };

  /** Stable in-place reorder of a worker result: this page's language first. */
  const reorderResult = (message) => {
    if (!message || message.type !== SEARCH_RESULT || !message.data) return;
    const items = message.data.items;
    if (!Array.isArray(items) || items.length < 2) return;
    const lang = pageLanguage();
    const rank = (item) => {
      const location = locationOf(item);
      return location !== null && languageOfPath(location) === lang ? 0 : 1;
    };
    const sorted = items
      .map((item, index) => [rank(item), index, item])
      .sort((a, b) => a[0] - b[0] || a[1] - b[1])
      .map((entry) => entry[2]);
    items.splice(0, items.length, ...sorted);
  };

  // -------------------------------------------------------------------------
  // 3. The index, loaded on first use of search
  // -------------------------------------------------------------------------

  const SEARCH_SETUP = 0; // Material's SearchMessageType.SETUP
  const LANGUAGES = ["es", "zh", "en"];
  const SEARCH_FIELD = "input.md-search__input, [data-md-component='search-query']";

  let indexDocs = null; // Promise of every language's sections, once search is used
  let heldSetup = null; // [worker, message] Material's set-up message, held until then

  /** Fetch the three languages' sections (the reader's first); a file that fails adds none. */
  const loadIndex = () => {
    if (!indexDocs) {
      const lang = pageLanguage();
      const order = [lang, ...LANGUAGES.filter((other) => other !== lang)];
      indexDocs = Promise.all(
        order.map((code) =>
          fetch(new URL(`search/search_index.${code}.json`, siteRoot))
            .then((response) => (response.ok ? response.json() : { docs: [] }))
            .then((part) => (Array.isArray(part.docs) ? part.docs : []))
            .catch(() => []),
        ),
      ).then((parts) => parts.flat());
    }
    return indexDocs;
  };

  const sendHeldSetup = () => {
    if (!heldSetup) return;
    const [worker, message] = heldSetup;
    heldSetup = null;
    loadIndex().then((docs) => {
      NativeWorker.prototype.postMessage.call(worker, { ...message, data: { ...message.data, docs } });
    });
  };

  /** The reader is about to search: load the index and set the worker up with it. */
  const searchWanted = () => {
    loadIndex();
    sendHeldSetup();
  };

  const isSearchField = (node) => node instanceof Element && node.matches(SEARCH_FIELD);
  document.addEventListener("focusin", (event) => { if (isSearchField(event.target)) searchWanted(); }, true);
  document.addEventListener(
    "pointerdown",
    (event) => {
      const target = event.target instanceof Element ? event.target : null;
      if (target && target.closest("label[for='__search'], .md-search")) searchWanted();
    },
    true,
  );
  document.addEventListener(
    "change",
    (event) => { if (event.target instanceof Element && event.target.id === "__search" && event.target.checked) searchWanted(); },
    true,
  );

  const NativeWorker = window.Worker;
  if (typeof NativeWorker === "function") {
    // Material runs `new Worker(<search worker URL>)`; our listener is added in
    // the constructor, so it runs before Material's own and sorts in place.
    window.Worker = class extends NativeWorker {
      constructor(url, options) {
        super(url, options);
        this.kvSearch = /search/i.test(String(url));
        if (this.kvSearch) {
          this.addEventListener("message", (event) => reorderResult(event.data));
        }
      }

      postMessage(message, ...rest) {
        const emptySetup = this.kvSearch && message && message.type === SEARCH_SETUP && message.data &&
          Array.isArray(message.data.docs) && message.data.docs.length === 0;
        if (!emptySetup) return super.postMessage(message, ...rest);
        heldSetup = [this, message];
        if (indexDocs || isSearchField(document.activeElement)) searchWanted();
        return undefined;
      }
    };
  }

  /** Mark rendered results whose page is in another language. */
  const markResult = (item) => {
    if (!(item instanceof Element) || item.dataset.kvLang) return;
    const link = item.querySelector("a[href]");
    if (!link) return;
    const lang = languageOfUrl(link.getAttribute("href"));
    item.dataset.kvLang = lang;
    if (lang === pageLanguage()) return;
    item.classList.add("kv-search-other-language");
    const title = item.querySelector("h1, h2");
    if (title && !title.querySelector(".kv-search-language")) {
      const badge = document.createElement("span");
      badge.className = "kv-search-language";
      badge.lang = lang;
      badge.textContent = LANGUAGE_NAMES[lang] || lang;
      title.append(" ", badge);
    }
  };

  const watchResults = () => {
    const list = document.querySelector(".md-search-result__list");
    if (!list) return;
    list.querySelectorAll(".md-search-result__item").forEach(markResult);
    new MutationObserver((records) => {
      for (const record of records) {
        record.addedNodes.forEach((node) => {
          if (node instanceof Element && node.classList.contains("md-search-result__item")) markResult(node);
        });
      }
    }).observe(list, { childList: true });
  };

  document.addEventListener("DOMContentLoaded", watchResults);
})();
