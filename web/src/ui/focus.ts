// Where the keyboard's focus went after an action: lost (on the page's body) when the control that
// had it was taken out of the page or turned off while its work ran. Screens give it back to where
// a keyboard or screen reader user goes on from, once that can take it.

/** whether the focus is on nothing: the page's body */
export const focusLost = (): boolean =>
  document.activeElement === null || document.activeElement === document.body

/**
 * Focuses what `find` gives once it can take the focus (a button turned on again by the render after
 * its work), trying each frame for up to `ms`, and only while `wanted` says the focus still needs it.
 */
export function focusWhenAble(
  find: () => HTMLElement | null | undefined,
  wanted: () => boolean = focusLost,
  ms = 1000,
): void {
  const until = performance.now() + ms
  const attempt = () => {
    if (!wanted()) return
    const target = find()
    if (!target?.isConnected) return
    target.focus()
    if (document.activeElement !== target && performance.now() < until) requestAnimationFrame(attempt)
  }
  requestAnimationFrame(attempt)
}
