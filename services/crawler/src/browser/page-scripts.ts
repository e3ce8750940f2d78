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
 * A short name for an area, from what the page says about the element rather than what it holds
 * (a price changes; that is why it is watched): its own accessible name (aria-label, the elements its
 * aria-labelledby names, a form field's label, title), else the nearest name of a part around it
 * (an ancestor's aria-label or aria-labelledby, or the last heading before it inside that part),
 * with the label just before it (a "Price" on the price's line, a <dt> before its <dd>). Empty when
 * the page says nothing; the wizard then numbers the area. At most \`maxLength\` characters.
 */
export const AREA_NAME = `function (request) {
  ${LOCATE}
  const element = locate(request.locator);
  if (!element) return '';
  const squash = function (text) { return (text || '').replace(/\\s+/g, ' ').trim(); };
  const textOf = function (node) { return squash(typeof node.innerText === 'string' ? node.innerText : node.textContent); };
  const own = textOf(element);
  const usable = function (text) { return text !== '' && text !== own && text.length <= request.maxLength * 2; };
  const labelled = function (node) {
    const label = squash(node.getAttribute('aria-label'));
    if (label) return label;
    const ids = squash(node.getAttribute('aria-labelledby'));
    if (!ids) return '';
    return squash(ids.split(' ').map(function (id) {
      const named = document.getElementById(id);
      return named && named !== node ? textOf(named) : '';
    }).join(' '));
  };
  const shorten = function (text) {
    return text.length <= request.maxLength ? text : text.slice(0, request.maxLength - 1).trim() + '…';
  };

  const fieldLabel = element.labels && element.labels[0] ? textOf(element.labels[0]) : '';
  const ownName = [labelled(element), fieldLabel, squash(element.getAttribute('title'))].find(usable);
  if (ownName) return shorten(ownName);

  // A label, not just any text before it: a <dt>, <th> or <label>, or words on the same line (a
  // flex row's items are blocks, so the boxes tell, not the display).
  const before = element.previousElementSibling;
  const onLine = function (left, right) {
    const a = left.getBoundingClientRect();
    const b = right.getBoundingClientRect();
    return a.height > 0 && a.bottom > b.top && a.top < b.bottom && a.right <= b.left + 1;
  };
  const isLabel = before !== null && (/^(DT|TH|LABEL)$/.test(before.tagName) || onLine(before, element));
  const beside = isLabel ? textOf(before) : '';
  const besideLabel = usable(beside) && beside.length <= 20 ? beside : '';

  const HEADINGS = 'h1, h2, h3, h4, h5, h6, [role="heading"]';
  let partName = '';
  let depth = 0;
  for (let part = element.parentElement; part && part !== document.documentElement && depth < 8; part = part.parentElement, depth++) {
    const named = labelled(part);
    if (usable(named)) { partName = named; break; }
    // A heading before it that heads a box the element is in, not one of a box closed before it
    // (another card or section).
    const headings = Array.prototype.filter.call(part.querySelectorAll(HEADINGS), function (heading) {
      const heads = heading.parentElement !== null && heading.parentElement.contains(element);
      return heads && !heading.contains(element) && !element.contains(heading) &&
        (heading.compareDocumentPosition(element) & Node.DOCUMENT_POSITION_FOLLOWING) !== 0;
    });
    const last = headings.length > 0 ? textOf(headings[headings.length - 1]) : '';
    if (usable(last)) { partName = last; break; }
  }
  const name = [partName, besideLabel].filter(function (text, index, all) {
    return text !== '' && all.indexOf(text) === index;
  }).join(' ');
  // The part's name alone reads better than both cut off in the label.
  return shorten(name.length > request.maxLength && partName ? partName : name);
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
