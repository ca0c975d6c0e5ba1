/** The fixture provider's seed data is physically sound: consistent structures, cells, coordination and distances. */
import { beforeAll, describe, expect, it } from "vitest";
import { fixtureProvider, type Json, records } from "./helpers.js";

const provider = fixtureProvider();
const { v1 } = provider;

describe("seed data", () => {
  let structures: Json[];
  beforeAll(async () => {
    structures = records((await v1("/structures?page_limit=50")).body.data);
  });

  type Vec = [number, number, number];
  interface Attributes {
    readonly elements: string[];
    readonly nelements: number;
    readonly elements_ratios: number[];
    readonly nsites: number;
    readonly species_at_sites: string[];
    readonly species: { name: string }[];
    readonly lattice_vectors: Vec[];
    readonly cartesian_site_positions: Vec[];
    readonly dimension_types: number[];
    readonly nperiodic_dimensions: number;
  }
  const det = ([a, b, c]: Vec[]) =>
    a![0] * (b![1] * c![2] - b![2] * c![1]) -
    a![1] * (b![0] * c![2] - b![2] * c![0]) +
    a![2] * (b![0] * c![1] - b![1] * c![0]);
  const byId = (id: string) => structures.find((entry) => entry.id === id)!.attributes as Attributes;

  /** Distances from site `index` to every other site in the neighbouring cells, ascending. */
  function neighbours(attributes: Attributes, index: number): { species: string; distance: number }[] {
    const lattice = attributes.lattice_vectors as Vec[];
    const positions = attributes.cartesian_site_positions as Vec[];
    const origin = positions[index]!;
    const out: { species: string; distance: number }[] = [];
    positions.forEach((position, other) => {
      for (let i = -1; i <= 1; i++)
        for (let j = -1; j <= 1; j++)
          for (let k = -1; k <= 1; k++) {
            if (other === index && i === 0 && j === 0 && k === 0) continue;
            const shifted = [0, 1, 2].map(
              (axis) =>
                position[axis]! + i * lattice[0]![axis]! + j * lattice[1]![axis]! + k * lattice[2]![axis]!,
            );
            const distance = Math.hypot(...shifted.map((value, axis) => value - origin[axis]!));
            out.push({ species: attributes.species_at_sites[other]!, distance });
          }
    });
    return out.sort((a, b) => a.distance - b.distance);
  }

  it("holds at least twelve consistent structures", () => {
    expect(structures.length).toBeGreaterThanOrEqual(12);
    for (const attributes of structures.map((entry) => entry.attributes as Attributes)) {
      expect([...attributes.elements].sort()).toEqual(attributes.elements);
      expect(attributes.nelements).toBe(attributes.elements.length);
      expect(attributes.elements_ratios).toHaveLength(attributes.nelements);
      expect(attributes.elements_ratios.reduce((sum, value) => sum + value, 0)).toBeCloseTo(1, 12);
      expect(attributes.cartesian_site_positions).toHaveLength(attributes.nsites);
      expect(attributes.species_at_sites).toHaveLength(attributes.nsites);
      const names = attributes.species.map((species) => species.name);
      for (const name of attributes.species_at_sites) expect(names).toContain(name);
      expect(attributes.nperiodic_dimensions).toBe(
        attributes.dimension_types.reduce((sum, value) => sum + value, 0),
      );
      expect(Math.abs(det(attributes.lattice_vectors))).toBeGreaterThan(1);
    }
  });

  it.each<[string, string, string, string]>([
    ["si-diamond", "Si", "Si", "A"],
    ["sio2-alpha-quartz", "SiO2", "O2Si", "A2B"],
    ["nacl-rocksalt", "NaCl", "ClNa", "AB"],
    ["gaas-zincblende", "GaAs", "AsGa", "AB"],
    ["sic-3c", "SiC", "CSi", "AB"],
    ["mgo-rocksalt", "MgO", "MgO", "AB"],
    ["al-fcc", "Al", "Al", "A"],
    ["fe-bcc", "Fe", "Fe", "A"],
    ["cu-fcc", "Cu", "Cu", "A"],
    ["tio2-rutile", "TiO2", "O2Ti", "A2B"],
    ["zno-wurtzite", "ZnO", "OZn", "AB"],
    ["lif-rocksalt", "LiF", "FLi", "AB"],
    ["si3n4-beta", "Si3N4", "N4Si3", "A4B3"],
  ])("%s has formulas %s / %s / %s", (id, descriptive, reduced, anonymous) => {
    expect(byId(id)).toMatchObject({
      chemical_formula_descriptive: descriptive,
      chemical_formula_reduced: reduced,
      chemical_formula_anonymous: anonymous,
    });
  });

  it.each<[string, number]>([
    ["si-diamond", 5.431 ** 3 / 4],
    ["nacl-conventional", 5.6402 ** 3],
    ["fe-bcc", 2.8665 ** 3 / 2],
    ["sio2-alpha-quartz", (Math.sqrt(3) / 2) * 4.916 ** 2 * 5.4054],
    ["tio2-rutile", 4.5937 ** 2 * 2.9587],
  ])("%s has cell volume %f Å³", (id, volume) => {
    expect(Math.abs(det(byId(id).lattice_vectors))).toBeCloseTo(volume, 3);
  });

  it.each<[string, number, string, number, number, number]>([
    // structure, site, neighbour species, count, min and max distance (Å)
    ["si-diamond", 0, "Si", 4, 2.35, 2.353],
    ["nacl-rocksalt", 0, "Cl", 6, 2.82, 2.821],
    ["gaas-zincblende", 0, "As", 4, 2.447, 2.449],
    ["mgo-rocksalt", 0, "O", 6, 2.105, 2.106],
    ["al-fcc", 0, "Al", 12, 2.863, 2.864],
    ["fe-bcc", 0, "Fe", 8, 2.482, 2.483],
    ["cu-fcc", 0, "Cu", 12, 2.556, 2.557],
    ["sio2-alpha-quartz", 0, "O", 4, 1.6, 1.62],
    ["sio2-alpha-quartz", 3, "Si", 2, 1.6, 1.62],
    ["tio2-rutile", 0, "O", 6, 1.94, 1.99],
    ["zno-wurtzite", 0, "O", 4, 1.97, 1.995],
    ["si3n4-beta", 0, "N", 4, 1.72, 1.75],
    ["si3n4-beta", 12, "Si", 3, 1.72, 1.75],
  ])("%s site %d has %d %s neighbours between %f and %f Å", (id, site, species, count, min, max) => {
    const near = neighbours(byId(id), site).slice(0, count);
    for (const neighbour of near) {
      expect(neighbour.species).toBe(species);
      expect(neighbour.distance).toBeGreaterThanOrEqual(min);
      expect(neighbour.distance).toBeLessThanOrEqual(max);
    }
    // The next neighbour is clearly farther: the coordination number is exactly `count`.
    expect(neighbours(byId(id), site)[count]!.distance).toBeGreaterThan(max + 0.2);
  });
});
