/**
 * True when a parsed JSON value nests deeper than `levels` objects or arrays (the value itself is level 1). Walked
 * without recursion, so a hostile 1 MiB body of brackets is safe to walk.
 */
export function nestsDeeperThan(value: unknown, levels: number): boolean {
  const stack: [unknown, number][] = [[value, 1]];
  while (stack.length > 0) {
    const [item, depth] = stack.pop()!;
    if (typeof item !== 'object' || item === null) continue;
    if (depth > levels) return true;
    for (const inner of Array.isArray(item) ? item : Object.values(item)) if (typeof inner === 'object' && inner !== null) stack.push([inner, depth + 1]);
  }
  return false;
}
