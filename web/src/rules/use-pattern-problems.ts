import { useQueries } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import type { NotificationRules } from '../api/target-settings.ts';
import { checkPattern, type PatternCheck } from '../api/targets.ts';
import { queryKeys } from '../query-keys.ts';
import { rulePatterns } from './rule-groups.ts';

/** A pause in typing long enough not to ask the gateway at every key. */
const TYPING_PAUSE_MS = 300;

export type PatternProblems = ReadonlyMap<string, NonNullable<PatternCheck['code']>>;

/**
 * The rules' regular expressions that Register would refuse, each with why, asked of the gateway
 * (which runs Register's own RE2 check) once typing pauses. The wizard's editor marks them at
 * their field and its Next waits for them to be put right (docs/product.md#rules).
 */
export function usePatternProblems(rules: NotificationRules): PatternProblems {
  const patterns = rulePatterns(rules);
  const key = patterns.join('\u0000');
  const [settled, setSettled] = useState(patterns);
  // biome-ignore lint/correctness/useExhaustiveDependencies: the joined key stands for the list.
  useEffect(() => {
    const timer = setTimeout(() => setSettled(patterns), TYPING_PAUSE_MS);
    return () => clearTimeout(timer);
  }, [key]);
  const answers = useQueries({
    queries: settled.map((pattern) => ({
      queryKey: queryKeys.patternCheck(pattern),
      queryFn: ({ signal }: { signal: AbortSignal }) => checkPattern(pattern, signal),
      staleTime: Number.POSITIVE_INFINITY,
    })),
  });
  const problems = new Map<string, NonNullable<PatternCheck['code']>>();
  settled.forEach((pattern, index) => {
    const code = answers[index]?.data?.code;
    if (code) problems.set(pattern, code);
  });
  return problems;
}
