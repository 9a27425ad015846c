// Seed selection.
import type { Store } from '../store';
import type { LargeSeedOptions, SeedName } from '../types';
import { demoSeed } from './demo';
import { emptySeed } from './empty';
import { hostileSeed } from './hostile';
import { largeSeed } from './large';

export function buildSeed(seed: SeedName, large?: LargeSeedOptions): Store {
  switch (seed) {
    case 'demo':
      return demoSeed();
    case 'large':
      return largeSeed(large);
    case 'empty':
      return emptySeed();
    case 'hostile':
      return hostileSeed();
  }
}
