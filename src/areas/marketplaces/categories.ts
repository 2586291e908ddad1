// The sandbox's category set: one table drives titles, sales-rank names and demand, so they never disagree.

import type { components } from '../../contract/document/generated.js';

/** Category codes, as the contract's CatalogCategory enum lists them (same order). */
export const CATEGORY_CODES: readonly CategoryCode[] = [
  'electronics',
  'computers',
  'home_kitchen',
  'household_supplies',
  'health_medical',
  'grocery_food',
  'clothing_apparel',
  'toys_games',
  'sports_outdoors',
  'office_products',
  'pet_supplies',
  'tools_home_improvement',
  'beauty_personal_care',
  'books',
];

/** A category code, as the contract's CatalogCategory enum names it. */
export type CategoryCode = components['schemas']['CatalogCategory'];

/** What the generator and the sales model need to know about a category. */
export interface CategoryInfo {
  /** Root category name as sales ranks show it. */
  name: string;
  /** Subcategory names (the second sales-rank series) with nouns for titles. */
  subcategories: ReadonlyArray<{ name: string; nouns: readonly string[] }>;
  /**
   * Daily units of the rank-1 item on a marketplace of scale 1 (see sales-volume-model): bigger categories sell
   * more at the same rank.
   */
  demandAtRankOne: number;
  /** Share of items that need compliance documents before selling (certificates, licences). */
  complianceShare: number;
  /** Typical USD price range of the category's items. */
  priceUsd: readonly [number, number];
}

export const CATEGORIES: Readonly<Record<CategoryCode, CategoryInfo>> = {
  electronics: {
    name: 'Electronics',
    subcategories: [
      { name: 'Headphones', nouns: ['Wireless Earbuds', 'Over-Ear Headphones', 'Sport Earphones'] },
      { name: 'Chargers & Power Adapters', nouns: ['USB-C Charger', 'Power Bank', 'Charging Cable'] },
    ],
    demandAtRankOne: 9000,
    complianceShare: 0.2,
    priceUsd: [9, 180],
  },
  computers: {
    name: 'Computers & Accessories',
    subcategories: [
      { name: 'Keyboards', nouns: ['Mechanical Keyboard', 'Wireless Keyboard'] },
      { name: 'Mice', nouns: ['Ergonomic Mouse', 'Gaming Mouse'] },
    ],
    demandAtRankOne: 7000,
    complianceShare: 0.05,
    priceUsd: [12, 150],
  },
  home_kitchen: {
    name: 'Home & Kitchen',
    subcategories: [
      { name: 'Water Bottles', nouns: ['Insulated Water Bottle', 'Glass Water Bottle'] },
      { name: 'Cookware', nouns: ['Non-Stick Frying Pan', 'Cast Iron Skillet', 'Saucepan Set'] },
    ],
    demandAtRankOne: 10000,
    complianceShare: 0.02,
    priceUsd: [8, 90],
  },
  household_supplies: {
    name: 'Household Supplies',
    subcategories: [{ name: 'Cleaning Supplies', nouns: ['Multi-Surface Cleaner', 'Dishwasher Tablets', 'Laundry Pods'] }],
    demandAtRankOne: 8000,
    complianceShare: 0.4,
    priceUsd: [5, 40],
  },
  health_medical: {
    name: 'Health & Household',
    subcategories: [{ name: 'Medical Supplies', nouns: ['Digital Thermometer', 'Blood Pressure Monitor', 'First Aid Kit'] }],
    demandAtRankOne: 7500,
    complianceShare: 0.9,
    priceUsd: [8, 80],
  },
  grocery_food: {
    name: 'Grocery & Gourmet Food',
    subcategories: [{ name: 'Snacks', nouns: ['Protein Bars', 'Roasted Almonds', 'Dark Chocolate'] }],
    demandAtRankOne: 8500,
    complianceShare: 0.8,
    priceUsd: [4, 35],
  },
  clothing_apparel: {
    name: 'Clothing, Shoes & Jewelry',
    subcategories: [
      { name: 'Socks', nouns: ['Running Socks', 'Merino Wool Socks'] },
      { name: 'T-Shirts', nouns: ['Cotton T-Shirt', 'Performance Tee'] },
    ],
    demandAtRankOne: 9500,
    complianceShare: 0.05,
    priceUsd: [8, 70],
  },
  toys_games: {
    name: 'Toys & Games',
    subcategories: [{ name: 'Building Toys', nouns: ['Building Blocks Set', 'Magnetic Tiles'] }],
    demandAtRankOne: 8000,
    complianceShare: 0.3,
    priceUsd: [10, 90],
  },
  sports_outdoors: {
    name: 'Sports & Outdoors',
    subcategories: [{ name: 'Yoga', nouns: ['Yoga Mat', 'Resistance Bands', 'Foam Roller'] }],
    demandAtRankOne: 7000,
    complianceShare: 0.02,
    priceUsd: [10, 120],
  },
  office_products: {
    name: 'Office Products',
    subcategories: [{ name: 'Desk Accessories', nouns: ['Desk Organizer', 'Monitor Stand', 'Gel Pens'] }],
    demandAtRankOne: 6000,
    complianceShare: 0.01,
    priceUsd: [6, 60],
  },
  pet_supplies: {
    name: 'Pet Supplies',
    subcategories: [{ name: 'Dog Toys', nouns: ['Chew Toy', 'Rope Toy', 'Treat Puzzle'] }],
    demandAtRankOne: 6500,
    complianceShare: 0.05,
    priceUsd: [6, 50],
  },
  tools_home_improvement: {
    name: 'Tools & Home Improvement',
    subcategories: [{ name: 'Power Tool Accessories', nouns: ['Drill Bit Set', 'Screwdriver Set', 'LED Work Light'] }],
    demandAtRankOne: 6000,
    complianceShare: 0.1,
    priceUsd: [10, 150],
  },
  beauty_personal_care: {
    name: 'Beauty & Personal Care',
    subcategories: [{ name: 'Skin Care', nouns: ['Hydrating Face Serum', 'Sunscreen SPF 50', 'Night Cream'] }],
    demandAtRankOne: 9000,
    complianceShare: 0.15,
    priceUsd: [6, 60],
  },
  books: {
    name: 'Books',
    subcategories: [{ name: 'Cookbooks', nouns: ['Weeknight Cookbook', 'Baking Handbook'] }],
    demandAtRankOne: 12000,
    complianceShare: 0,
    priceUsd: [8, 40],
  },
};
