-- Optional referential integrity (clause 1.3), added by `init tpcc --foreign-keys`.

ALTER TABLE district ADD CONSTRAINT district_fkey_warehouse FOREIGN KEY (d_w_id) REFERENCES warehouse (w_id);
ALTER TABLE customer ADD CONSTRAINT customer_fkey_district FOREIGN KEY (c_w_id, c_d_id) REFERENCES district (d_w_id, d_id);
ALTER TABLE history ADD CONSTRAINT history_fkey_customer FOREIGN KEY (h_c_w_id, h_c_d_id, h_c_id) REFERENCES customer (c_w_id, c_d_id, c_id);
ALTER TABLE history ADD CONSTRAINT history_fkey_district FOREIGN KEY (h_w_id, h_d_id) REFERENCES district (d_w_id, d_id);
ALTER TABLE new_order ADD CONSTRAINT new_order_fkey_orders FOREIGN KEY (no_w_id, no_d_id, no_o_id) REFERENCES orders (o_w_id, o_d_id, o_id);
ALTER TABLE orders ADD CONSTRAINT orders_fkey_customer FOREIGN KEY (o_w_id, o_d_id, o_c_id) REFERENCES customer (c_w_id, c_d_id, c_id);
ALTER TABLE order_line ADD CONSTRAINT order_line_fkey_orders FOREIGN KEY (ol_w_id, ol_d_id, ol_o_id) REFERENCES orders (o_w_id, o_d_id, o_id);
ALTER TABLE order_line ADD CONSTRAINT order_line_fkey_stock FOREIGN KEY (ol_supply_w_id, ol_i_id) REFERENCES stock (s_w_id, s_i_id);
ALTER TABLE stock ADD CONSTRAINT stock_fkey_warehouse FOREIGN KEY (s_w_id) REFERENCES warehouse (w_id);
ALTER TABLE stock ADD CONSTRAINT stock_fkey_item FOREIGN KEY (s_i_id) REFERENCES item (i_id);
