"""Ticket draws on SQL engines: section 18's draw as one SQL query for DuckDB, Spark SQL,
BigQuery and PostgreSQL (:mod:`.query`, pure), and DuckDB as an engine that draws from
CSV/TSV and Parquet files of any size (:mod:`.engine`, which imports duckdb when it runs).
"""

from __future__ import annotations

from .query import DIALECTS, Dialect, TicketSQL, population_query, ticket_query

__all__ = ["DIALECTS", "Dialect", "TicketSQL", "population_query", "ticket_query"]
