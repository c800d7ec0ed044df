-- Primary keys and secondary indexes, built after the data is loaded; one statement per
-- line group so that the loader can build them on parallel connections.

ALTER TABLE warehouse ADD CONSTRAINT warehouse_pkey PRIMARY KEY (w_id);
ALTER TABLE district ADD CONSTRAINT district_pkey PRIMARY KEY (d_w_id, d_id);
ALTER TABLE customer ADD CONSTRAINT customer_pkey PRIMARY KEY (c_w_id, c_d_id, c_id);
-- Payment and Order-Status select customers by last name (clauses 2.5.2.2, 2.6.2.2).
CREATE INDEX customer_name_idx ON customer (c_w_id, c_d_id, c_last, c_first);
ALTER TABLE new_order ADD CONSTRAINT new_order_pkey PRIMARY KEY (no_w_id, no_d_id, no_o_id);
ALTER TABLE orders ADD CONSTRAINT orders_pkey PRIMARY KEY (o_w_id, o_d_id, o_id);
-- Order-Status reads a customer's most recent order.
CREATE UNIQUE INDEX orders_customer_idx ON orders (o_w_id, o_d_id, o_c_id, o_id);
ALTER TABLE order_line ADD CONSTRAINT order_line_pkey PRIMARY KEY (ol_w_id, ol_d_id, ol_o_id, ol_number);
ALTER TABLE item ADD CONSTRAINT item_pkey PRIMARY KEY (i_id);
ALTER TABLE stock ADD CONSTRAINT stock_pkey PRIMARY KEY (s_w_id, s_i_id);
