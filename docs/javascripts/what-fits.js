/*
 * The "what fits on my GPU" page: show only the GPUs the reader ticks, without a page reload.
 *
 * Every figure of the matrix was computed by the core when the site was built; this script does
 * no arithmetic and writes no text: it toggles `hidden` on the cells of the unticked GPUs'
 * columns (data-kvfit-gpu). A link to a GPU's section (#h100-80gb) opens the page with that
 * GPU alone.
 */
const root = document.querySelector("[data-kvfit]");
if (root) {
  const boxes = [...root.querySelectorAll("input[data-kvfit-filter]")];
  const cells = [...root.querySelectorAll("[data-kvfit-gpu]")];
  const apply = () => {
    const shown = new Set(boxes.filter((b) => b.checked).map((b) => b.value));
    for (const c of cells) c.hidden = !shown.has(c.dataset.kvfitGpu);
  };
  const only = (gpu) => {
    for (const b of boxes) b.checked = b.value === gpu;
    apply();
  };
  for (const b of boxes) b.addEventListener("change", apply);
  root.querySelector("[data-kvfit-all]")?.addEventListener("click", () => {
    for (const b of boxes) b.checked = true;
    apply();
  });
  root.querySelector("[data-kvfit-none]")?.addEventListener("click", () => {
    for (const b of boxes) b.checked = false;
    apply();
  });
  const fromHash = () => {
    const id = decodeURIComponent(location.hash.slice(1));
    const th = id && root.querySelector(`th[data-kvfit-gpu][id="${CSS.escape(id)}"]`);
    if (th) only(th.dataset.kvfitGpu);
  };
  window.addEventListener("hashchange", fromHash);
  fromHash();
}
