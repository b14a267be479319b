/**
 * A tiny DOM builder. Every value goes in as text or an attribute, never as HTML: run sources and
 * worker messages come from files and processes, not from us.
 */
export function el(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  for (const [name, value] of Object.entries(attrs)) {
    if (value === undefined || value === false) continue;
    if (name === 'className') node.className = value;
    else node.setAttribute(name, value === true ? '' : String(value));
  }
  for (const child of children) {
    if (child === undefined || child === null) continue;
    node.append(child instanceof Node ? child : String(child));
  }
  return node;
}

/** Sets text only when it changes, so a poll every second does not disturb selection or hover. */
export function setText(node, text) {
  const value = String(text);
  if (node.textContent !== value) node.textContent = value;
}

export function setClass(node, className) {
  if (node.className !== className) node.className = className;
}
