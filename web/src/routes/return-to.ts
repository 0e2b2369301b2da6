// The login page's ?redirect=: the page that sent a visitor to log in, to return to afterwards.
// Only a path of this site is taken (with its query and hash); anything else (another site,
// '//host', '/\host', a scheme such as javascript:) is dropped, so a link to our login page can
// never send someone elsewhere once they have signed in (no open redirect).
import * as v from 'valibot'

const HERE = 'http://here.invalid'

/** the path of this site that `value` names, or null when it names anything else */
export function sameSitePath(value: string): string | null {
  if (!value.startsWith('/')) return null
  let url: URL
  try {
    url = new URL(value, HERE)
  } catch {
    return null
  }
  // '//host' and '/\host' are other sites to a browser, and so is a path that resolves to one
  // ('/..//host')
  if (url.origin !== HERE || url.pathname.startsWith('//')) return null
  return `${url.pathname}${url.search}${url.hash}`
}

export const LoginSearch = v.object({
  redirect: v.fallback(v.optional(v.pipe(v.string(), v.transform(sameSitePath), v.string())), undefined),
})
