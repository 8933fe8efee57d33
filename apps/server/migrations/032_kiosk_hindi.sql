-- Kiosks in Hindi (issue 27): each kiosk's name, address, city and hours as a Hindi reader sees them, beside
-- the English. Optional: a kiosk without them shows its English fields in Hindi mode too.
ALTER TABLE kiosks
  ADD COLUMN name_hi text,
  ADD COLUMN address_hi text,
  ADD COLUMN city_hi text,
  ADD COLUMN hours_hi text;
