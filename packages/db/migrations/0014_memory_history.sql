-- Expand only: a nullable column that code before it never reads (it keeps recalling every row, as it did).
-- A fact superseded by a correction keeps its row as history, naming the fact that replaced it.
ALTER TABLE "memories" ADD COLUMN "superseded_by" uuid;