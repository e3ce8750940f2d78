/**
 * Functions run inside a page's isolated world. They are JavaScript source, not TypeScript
 * functions turned into strings, because the transpiler may add helpers (e.g. __name) that do
 * not exist in the page. Each one is self-contained and returns plain JSON.
 */

const LOCATE = `function locate(locator) {
  try {
    if (locator.selectorType === 'xpath') {
      const node = document.evaluate(locator.selector, document, null, XPathResult.FIRST_ORDERED_NODE_TYPE, null).singleNodeValue;
      if (!node) return null;
      return node.nodeType === Node.ELEMENT_NODE ? node : node.parentElement;
    }
    return document.querySelector(locator.selector);
  } catch {
    return null;
  }
}
function boxOf(element) {
  const rect = element.getBoundingClientRect();
  return { x: rect.left + window.scrollX, y: rect.top + window.scrollY, width: rect.width, height: rect.height };
}`;

/** The element a locator names (as a remote object, for CDP), or null. */
export const FIND_ELEMENT = `function (locator) {
  ${LOCATE}
  return locate(locator);
}`;

/** Each area's HTML, visible text (innerText: what a person sees) and box in document pixels. */
export const READ_AREAS = `function (areas) {
  ${LOCATE}
  return areas.map(function (area) {
    const element = locate(area);
    if (!element) return { found: false, html: '', text: '', box: null };
    const text = typeof element.innerText === 'string' ? element.innerText : element.textContent || '';
    return { found: true, html: element.outerHTML, text: text, box: boxOf(element) };
  });
}`;

/**
 * Resolves once no node was added, removed or changed its text for \`quietMs\`, or after \`maxMs\`.
 * Attribute changes are ignored: animations change styles forever without changing content.
 * A loaded document without scripts or frames cannot change any more, so it is quiet at once.
 */
export const WAIT_DOM_QUIET = `function (options) {
  if (document.readyState === 'complete' && document.scripts.length === 0 && !document.querySelector('iframe, frame')) {
    return Promise.resolve(true);
  }
  return new Promise(function (resolve) {
    const start = performance.now();
    let last = start;
    const observer = new MutationObserver(function () { last = performance.now(); });
    observer.observe(document, { subtree: true, childList: true, characterData: true });
    function tick() {
      const now = performance.now();
      const quiet = now - last >= options.quietMs;
      if (quiet || now - start >= options.maxMs) {
        observer.disconnect();
        resolve(quiet);
        return;
      }
      setTimeout(tick, Math.max(10, options.quietMs - (now - last)));
    }
    setTimeout(tick, options.quietMs);
  });
}`;

/** What the size limits and the bot-protection check look at. */
export const PAGE_FACTS = `function (options) {
  const navigation = performance.getEntriesByType('navigation')[0];
  const root = document.documentElement;
  return {
    documentBytes: navigation ? navigation.decodedBodySize : 0,
    elements: document.getElementsByTagName('*').length,
    markup: root ? root.outerHTML.slice(0, options.markup) : '',
  };
}`;

/**
 * The visible elements of the document with their boxes and two selectors each (CSS and
 * XPath), and its frames, so the wizard can turn a click or a dragged rectangle into an area.
 */
export const ELEMENT_MAP = `function (options) {
  ${LOCATE}
  function unique(selector) {
    try { return document.querySelectorAll(selector).length === 1; } catch { return false; }
  }
  function cssPath(element) {
    const parts = [];
    for (let node = element; node && node.nodeType === Node.ELEMENT_NODE; node = node.parentElement) {
      if (node.id && unique('#' + CSS.escape(node.id))) { parts.unshift('#' + CSS.escape(node.id)); break; }
      const tag = node.localName;
      if (tag === 'html' || tag === 'body') { parts.unshift(tag); if (tag === 'html') break; continue; }
      let index = 1;
      for (let sibling = node.previousElementSibling; sibling; sibling = sibling.previousElementSibling) {
        if (sibling.localName === tag) index++;
      }
      parts.unshift(tag + ':nth-of-type(' + index + ')');
    }
    return parts.join(' > ');
  }
  function xPath(element) {
    const parts = [];
    for (let node = element; node && node.nodeType === Node.ELEMENT_NODE; node = node.parentElement) {
      if (node.id && unique('#' + CSS.escape(node.id)) && node.id.indexOf('"') < 0) {
        parts.unshift('//*[@id="' + node.id + '"]');
        return parts.join('/');
      }
      const tag = node.localName;
      let index = 1;
      for (let sibling = node.previousElementSibling; sibling; sibling = sibling.previousElementSibling) {
        if (sibling.localName === tag) index++;
      }
      parts.unshift(tag === 'html' ? '/html' : tag + '[' + index + ']');
    }
    return parts.join('/');
  }
  function visible(element, box) {
    if (box.width < 1 || box.height < 1) return false;
    const style = getComputedStyle(element);
    return style.visibility !== 'hidden' && style.display !== 'none' && Number(style.opacity) > 0;
  }
  const elements = [];
  const body = document.body;
  if (body) {
    const walker = document.createTreeWalker(body, NodeFilter.SHOW_ELEMENT);
    for (let node = walker.currentNode; node && elements.length < options.maxElements; node = walker.nextNode()) {
      const tag = node.localName;
      if (tag === 'script' || tag === 'style' || tag === 'noscript' || tag === 'template') continue;
      const box = boxOf(node);
      if (!visible(node, box)) continue;
      const text = typeof node.innerText === 'string' ? node.innerText : '';
      elements.push({ tag: tag, box: box, css: cssPath(node), xpath: xPath(node), text: text.slice(0, 120) });
    }
  }
  const frames = Array.prototype.map.call(document.querySelectorAll('iframe, frame'), function (frame) {
    return { css: cssPath(frame), xpath: xPath(frame), src: frame.src || '', name: frame.name || '', box: boxOf(frame) };
  });
  const root = document.documentElement;
  return {
    elements: elements,
    frames: frames,
    page: { width: root ? root.scrollWidth : 0, height: root ? root.scrollHeight : 0 },
  };
}`;

/** The document's scrollable size in CSS pixels. */
export const PAGE_SIZE = `function () {
  const root = document.documentElement;
  return { width: root ? root.scrollWidth : 0, height: root ? root.scrollHeight : 0 };
}`;

/** Where an iframe's document is drawn: its box inside the border, in document pixels. */
export const FRAME_CONTENT_BOX = `function (locator) {
  ${LOCATE}
  const frame = locate(locator);
  if (!frame) return null;
  const rect = frame.getBoundingClientRect();
  return {
    x: rect.left + window.scrollX + frame.clientLeft,
    y: rect.top + window.scrollY + frame.clientTop,
    width: frame.clientWidth,
    height: frame.clientHeight,
  };
}`;
