// calib/rtl/dep_matrix.v -- dependence matrix with ready logic (SOCGPU/GhOST
// style), one per warp.  Row i holds the in-flight entries that entry i waits
// for; inserting entry `ins_idx` writes its row from `ins_deps`; completion of
// entry `done_idx` clears that column in every row; entry i is ready when it
// is valid and its row is all zero (a wide NOR: ~ceil((N-1)/5) LUT6 per row).
module dep_matrix #(parameter N = 16) (
    input  wire                 clk,
    input  wire                 rst,
    input  wire                 ins,
    input  wire [$clog2(N)-1:0] ins_idx,
    input  wire [N-1:0]         ins_deps,
    input  wire                 done,
    input  wire [$clog2(N)-1:0] done_idx,
    input  wire                 issue,
    input  wire [$clog2(N)-1:0] issue_idx,
    output wire [N-1:0]         ready
);
    reg [N-1:0] m [0:N-1];
    reg [N-1:0] valid;
    // One-hot decodes: the column clear is an AND with a mask in every row,
    // not N dynamically indexed bit writes.
    wire [N-1:0] ins_oh   = ins  ? ({{(N-1){1'b0}}, 1'b1} << ins_idx)  : {N{1'b0}};
    wire [N-1:0] clr_mask = done ? ({{(N-1){1'b0}}, 1'b1} << done_idx) : {N{1'b0}};
    wire [N-1:0] iss_oh   = issue ? ({{(N-1){1'b0}}, 1'b1} << issue_idx) : {N{1'b0}};
    integer i;
    always @(posedge clk) begin
        if (rst) begin
            valid <= {N{1'b0}};
            for (i = 0; i < N; i = i + 1) m[i] <= {N{1'b0}};
        end else begin
            for (i = 0; i < N; i = i + 1)
                m[i] <= (ins_oh[i] ? ins_deps : m[i]) & ~clr_mask;
            valid <= (valid | ins_oh) & ~iss_oh;
        end
    end
    genvar g;
    generate for (g = 0; g < N; g = g + 1) begin : rdy
        assign ready[g] = valid[g] & ~|m[g];
    end endgenerate
endmodule
