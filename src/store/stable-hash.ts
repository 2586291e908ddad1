/**
 * 32-bit FNV-1a: the one stable, dependency-free string hash behind every derived seed (per area, per channel's
 * retailer world, per catalog item series), so the same input gives the same data on every machine.
 */
export function fnv1a(text: string): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    hash ^= text.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193);
  }
  return hash >>> 0;
}
