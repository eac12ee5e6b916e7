/**
 * The sandbox's catalogue of platforms and employers: generated from a fixed
 * seed, so it is the same on every start (ids included), large enough to page
 * through (300 employers, 60 platforms and the OAuth-style one), with some time_and_attendance platforms.
 * All names are invented.
 */
import { OAUTH_PLATFORM } from './oauth-platform.js';
import { seededRandom } from './random.js';
import type { Employer, Platform } from './resources.js';

/** A catalogue entry with its popularity rank (0 = most popular), used to order search results. */
export interface Ranked<T> {
  readonly item: T;
  readonly popularity: number;
}

/** The generated catalogue, each list in its stable listing order (by name). */
export interface Catalogue {
  readonly platforms: readonly Ranked<Platform>[];
  readonly employers: readonly Ranked<Employer>[];
  readonly platformById: ReadonlyMap<string, Platform>;
  readonly employerById: ReadonlyMap<string, Employer>;
}

const PLATFORM_PREFIXES = ['Pay', 'Work', 'Staff', 'Team', 'Wage', 'Crew', 'People', 'Hire', 'Shift', 'Clock'];
const PLATFORM_SUFFIXES = ['Wise', 'Ledger', 'Flow', 'Desk', 'Point', 'Hub', 'Works', 'Cloud', 'Stream', 'Base'];
// Platforms named after shifts and clocks track time, not pay: the sandbox's time_and_attendance ones.
const TIME_PREFIXES = new Set(['Shift', 'Clock']);

const EMPLOYER_PLACES = [
  'Acme',
  'Blue Ridge',
  'Cedar Valley',
  'Summit',
  'Harbor',
  'Pioneer',
  'Evergreen',
  'Granite',
  'Maple',
  'Riverside',
  'Lakeside',
  'Golden Plains',
  'Prairie',
  'Redwood',
  'Silver Lake',
  'Union',
  'Liberty',
  'Heritage',
  'Coastal',
  'Metro',
  'Northwind',
  'Bayview',
  'Highland',
  'Sunrise',
  'Ironwood',
];
const EMPLOYER_KINDS: readonly (readonly [string, string])[] = [
  ['Health System', 'healthcare'],
  ['Logistics', 'transportation'],
  ['Grocers', 'retail'],
  ['Manufacturing', 'manufacturing'],
  ['Credit Union', 'finance'],
  ['School District', 'education'],
  ['Hospitality Group', 'hospitality'],
  ['Construction', 'construction'],
  ['Outfitters', 'retail'],
  ['Transit Authority', 'government'],
  ['Foods', 'food_services'],
  ['Staffing', 'staffing'],
  ['Energy', 'utilities'],
  ['Insurance', 'finance'],
  ['Medical Center', 'healthcare'],
  ['Airlines', 'transportation'],
  ['Pharmacy', 'retail'],
  ['Hardware', 'retail'],
  ['Software', 'technology'],
  ['County Services', 'government'],
];

/** How many employers and platforms the catalogue holds (the platforms: 60 generated, and the OAuth-style one). */
export const CATALOGUE_SIZE = { employers: 300, platforms: 61 } as const;

const byName = <T extends { name: string }>(a: Ranked<T>, b: Ranked<T>): number => a.item.name.localeCompare(b.item.name, 'en');

/** Builds the catalogue from `seed` (the default gives the documented, stable catalogue). */
export const buildCatalogue = (seed = 'payroll-sandbox-catalogue-v1'): Catalogue => {
  const random = seededRandom(seed);
  const shuffle = <T>(items: T[]): T[] => {
    for (let index = items.length - 1; index > 0; index -= 1) {
      const other = random.int(0, index);
      [items[index], items[other]] = [items[other]!, items[index]!];
    }
    return items;
  };

  const platformNames = shuffle(PLATFORM_PREFIXES.flatMap((prefix) => PLATFORM_SUFFIXES.map((suffix) => [prefix, suffix] as const)));
  const platforms: Ranked<Platform>[] = platformNames.slice(0, CATALOGUE_SIZE.platforms - 1).map(([prefix, suffix], popularity) => {
    const type = TIME_PREFIXES.has(prefix) ? 'time_and_attendance' : 'payroll';
    return {
      popularity,
      item: {
        id: random.uuid(),
        name: `${prefix}${suffix}`,
        type,
        supports_percentage_allocation: type === 'payroll' && random.next() < 0.7,
      },
    };
  });
  const payroll = platforms.filter((platform) => platform.item.type === 'payroll');
  const timeTracking = platforms.filter((platform) => platform.item.type === 'time_and_attendance');

  const employerNames = shuffle(EMPLOYER_PLACES.flatMap((place) => EMPLOYER_KINDS.map((kind) => [place, kind] as const)));
  const employers: Ranked<Employer>[] = employerNames.slice(0, CATALOGUE_SIZE.employers).map(([place, [kind, industry]], popularity) => {
    // About one employer in ten runs on a time-tracking platform (shift work), the rest on payroll platforms.
    const platform = random.next() < 0.1 ? random.pick(timeTracking).item : random.pick(payroll).item;
    return {
      popularity,
      item: {
        id: random.uuid(),
        name: `${place} ${kind}`,
        industry,
        platform_id: platform.id,
        supports_percentage_allocation: platform.supports_percentage_allocation && random.next() < 0.8,
      },
    };
  });

  // The OAuth-style platform (see oauth-platform.ts): added, not drawn, so the generated ids stay as they were.
  platforms.push({
    popularity: platforms.length,
    item: { id: OAUTH_PLATFORM.id, name: OAUTH_PLATFORM.name, type: 'payroll', supports_percentage_allocation: true },
  });
  platforms.sort(byName);
  employers.sort(byName);
  return {
    platforms,
    employers,
    platformById: new Map(platforms.map(({ item }) => [item.id, item])),
    employerById: new Map(employers.map(({ item }) => [item.id, item])),
  };
};
