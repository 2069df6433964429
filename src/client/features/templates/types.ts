// The template shape the API returns (spec 02 §3). Move to src/shared/api-types.ts when the server defines it.

export interface VideoTemplate {
  id: number;
  title: string;
  description: string;
  thumbnailUrl: string;
  videoUrl: string;
  /** Seconds. */
  duration: number;
  category: string;
  ageRange: string;
  featured: boolean;
  isPremium: boolean;
  /** Dollars with 2 decimals, or null for a free template. */
  price: number | null;
  voiceOnly: boolean;
  createdAt: string;
}
