/*
 * The one copy helper of the site's scripts: the calculator's copy buttons
 * (kvcalc.js) and the heading permalinks (permalink.js) both import it.
 */

/**
 * Copy `text` to the clipboard; resolves true on success. Falls back to
 * `execCommand("copy")` where the Clipboard API is missing (plain-HTTP hosts)
 * or refused (permission denied).
 */
export async function copyText(text) {
  if (navigator.clipboard && window.isSecureContext) {
    try {
      await navigator.clipboard.writeText(text)
      return true
    } catch {
      /* permission denied: try the fallback */
    }
  }
  const area = document.createElement("textarea")
  area.value = text
  area.setAttribute("readonly", "")
  area.setAttribute("aria-hidden", "true")
  area.className = "kv-offscreen"
  document.body.append(area)
  area.select()
  let ok = false
  try {
    ok = document.execCommand("copy")
  } catch {
    ok = false
  }
  area.remove()
  return ok
}
