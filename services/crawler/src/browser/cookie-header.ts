/** A Cookie header value (`a=1; b=2`) as browser cookies scoped to `url`'s host. */
export function cookiesFromHeader(header: string, url: string) {
  return header
    .split(';')
    .map((part) => part.trim())
    .filter((part) => part.includes('='))
    .map((part) => {
      const at = part.indexOf('=');
      return { name: part.slice(0, at).trim(), value: part.slice(at + 1).trim(), url };
    });
}
