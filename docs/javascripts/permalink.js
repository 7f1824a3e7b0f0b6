/*
 * Heading permalinks ("¶"): a click still jumps to the section (the address
 * bar then holds its link) and also copies the section's full URL to the
 * clipboard, then shows a short confirmation in the page's language.
 *
 * The labels come from the HTML (hooks.py writes title / aria-label /
 * data-copied per language), so this file holds no strings. One delegated
 * listener on the document covers every page: navigation.instant is off, so
 * each page load runs this module once.
 */
import { copyText } from "./clipboard.js"

/** Show the confirmation next to the link; CSS fades it out, animationend removes it. */
function confirmCopied(link) {
  link.parentElement.querySelector(".kv-permalink-copied")?.remove()
  const note = document.createElement("span")
  note.className = "kv-permalink-copied"
  note.setAttribute("role", "status")
  note.textContent = link.dataset.copied || ""
  note.addEventListener("animationend", () => note.remove(), { once: true })
  link.after(note)
}

document.addEventListener("click", event => {
  const link = event.target instanceof Element ? event.target.closest("a.headerlink") : null
  if (!link) return
  const url = new URL(link.getAttribute("href"), window.location.href).href
  link.dataset.url = url
  copyText(url).then(ok => {
    if (ok) confirmCopied(link)
  })
})
