/**
 * NATS subject wildcards (`*` one token, `>` the rest), so the in-process bus routes and
 * filters exactly like JetStream does.
 */
export function subjectMatches(pattern: string, subject: string): boolean {
  const wanted = pattern.split('.');
  const tokens = subject.split('.');
  for (let i = 0; i < wanted.length; i++) {
    const token = wanted[i];
    if (token === '>') return tokens.length > i;
    if (i >= tokens.length) return false;
    if (token !== '*' && token !== tokens[i]) return false;
  }
  return wanted.length === tokens.length;
}

/** Whether some subject matches both patterns (JetStream refuses such consumers on a work queue). */
export function subjectsOverlap(a: string, b: string): boolean {
  const left = a.split('.');
  const right = b.split('.');
  for (let i = 0; i < Math.max(left.length, right.length); i++) {
    const l = left[i];
    const r = right[i];
    if (l === '>' || r === '>') return l !== undefined && r !== undefined;
    if (l === undefined || r === undefined) return false;
    if (l !== '*' && r !== '*' && l !== r) return false;
  }
  return true;
}
