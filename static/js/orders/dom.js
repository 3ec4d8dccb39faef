// The game page's element builder: el("li", {class, onclick, style, ...attributes}, ...children).

export function el(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(attrs)) {
    if (key === "class") node.className = value;
    else if (key.startsWith("on")) node.addEventListener(key.slice(2), value);
    // Through the CSSOM: the policy refuses style attributes (no 'unsafe-inline'), not this.
    else if (key === "style") node.style.cssText = value;
    else if (value !== undefined && value !== null && value !== false) node.setAttribute(key, value === true ? "" : value);
  }
  node.append(...children.filter((c) => c !== null && c !== undefined));
  return node;
}
